import { serveJobs } from "~/services/worker-pool.server";

// A worker for the pool's own tests (app/services/worker-pool.server.test.ts): it answers, waits, spins,
// fails, fills its memory or makes a large result, as each job asks.
type Job = { kind: "echo"; text: string } | { kind: "spin"; ms: number } | { kind: "fail" } | { kind: "fill" } | { kind: "bytes"; size: number };

serveJobs<Job, unknown>(async (job) => {
  if (job.kind === "echo") return { value: job.text.toUpperCase() };
  if (job.kind === "spin") {
    const until = Date.now() + job.ms;
    while (Date.now() < until);
    return { value: "spun" };
  }
  if (job.kind === "fail") throw new Error("This job fails.");
  if (job.kind === "fill") {
    const kept: number[][] = [];
    for (;;) kept.push(Array.from({ length: 100_000 }, (_, i) => i));
  }
  const bytes = new Uint8Array(job.size);
  return { value: bytes, transfer: [bytes.buffer] };
});
