import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "prisma/**/*.test.ts", "scripts/**/*.test.ts", "test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    pool: "forks",
    // One process per worker for all its files instead of a new one per file: the Node modules the files
    // share (React, PGlite, Prisma, sharp) load once. test/fresh-modules.ts gives each file the app's own
    // modules afresh and puts back what it changed in process.env.
    isolate: false,
    setupFiles: ["test/fresh-modules.ts"],
    // Vitest's default leaves a core free (one worker on CI's two), yet a test file waits on the server it
    // started and on PostgreSQL as much as it computes: two files side by side took a fifth less time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Passwords hashed at a low scrypt cost in the tests (app/services/password.server.ts; production keeps 17).
    env: { PASSWORD_HASH_COST: "12" },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    server: { deps: { external: ["@electric-sql/pglite"] } },
  },
});
