import { afterAll, vi } from "vitest";

// Test files share their worker process (isolate: false): the Node modules they load (React, PGlite,
// Prisma, sharp) are loaded once per worker instead of once per file, which a fresh process per file
// spent most of its start-up on. The app's own modules start fresh for every file, as they would in a
// process of its own, and what a file changed in process.env is put back when it ends.
vi.resetModules();
const env = { ...process.env };
afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name];
  Object.assign(process.env, env);
});
