// Runs a worker thread's TypeScript module from source (tests, `npm run dev`, the scripts): a worker does
// not inherit the loader of the process that started it, so it registers tsx itself, then imports the
// module named in workerData. A production server runs the built module instead (worker-pool.server.ts).
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
await import(workerData.entry);
