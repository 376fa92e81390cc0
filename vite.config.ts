import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig(({ isSsrBuild }) => ({
  // The server build starts from server/app.ts (request handler + start-up steps) so that server.js
  // and the routes share one copy of every module.
  build: isSsrBuild ? { rollupOptions: { input: "./server/app.ts" } } : undefined,
  plugins: [tailwindcss(), reactRouter()],
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  ssr: {
    // PGlite loads its WebAssembly and data files relative to its own package folder.
    external: ["@electric-sql/pglite", "pglite-prisma-adapter"],
  },
}));
