import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";

/** The modules worker threads run (app/services/worker-pool.server.ts), by the name of their built file. */
const WORKER_MODULES = { "book-worker": "./server/book-worker.ts" };

/**
 * Builds each worker thread's module to build/server/<name>.js, beside the server's entry and sharing its
 * chunks. Emitted as chunks with a file name of their own: React Router names every entry of the server
 * build index.js.
 */
function workerThreads(modules: Record<string, string>): Plugin {
  return {
    name: "everlight-worker-threads",
    buildStart() {
      for (const [name, id] of Object.entries(modules)) this.emitFile({ type: "chunk", id, fileName: `${name}.js` });
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  // The server build starts from server/app.ts (request handler + start-up steps) so that server.js
  // and the routes share one copy of every module.
  build: isSsrBuild ? { rollupOptions: { input: "./server/app.ts" } } : undefined,
  plugins: [tailwindcss(), reactRouter(), isSsrBuild && workerThreads(WORKER_MODULES)],
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  ssr: {
    // PGlite loads its WebAssembly and data files relative to its own package folder.
    external: ["@electric-sql/pglite", "pglite-prisma-adapter"],
  },
}));
