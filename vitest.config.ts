import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "prisma/**/*.test.ts", "scripts/**/*.test.ts", "test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    pool: "forks",
    // Passwords hashed at a low scrypt cost in the tests (app/services/password.server.ts; production keeps 17).
    env: { PASSWORD_HASH_COST: "12" },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    server: { deps: { external: ["@electric-sql/pglite"] } },
  },
});
