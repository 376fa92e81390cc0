import { monitorEventLoopDelay } from "node:perf_hooks";
import { afterEach, describe, expect, it } from "vitest";
import { createWorkerPool, WorkerBusy, WorkerFailed, type WorkerPool } from "./worker-pool.server";

// The pool that keeps long work off the thread answering requests: jobs run on worker threads, at most
// `size` at once and `queue` waiting; a job past its time, its memory or its result size ends its worker,
// and the pool goes on with a new one.

type Job = { kind: "echo"; text: string } | { kind: "spin"; ms: number } | { kind: "fail" } | { kind: "fill" } | { kind: "bytes"; size: number };

describe("a pool of worker threads", () => {
  let pool: WorkerPool<Job, unknown> | undefined;
  const open = (options: Partial<Parameters<typeof createWorkerPool>[0]> = {}) =>
    (pool = createWorkerPool<Job, unknown>({
      module: "test/pool-worker",
      size: 1,
      queue: 1,
      timeoutMs: 10_000,
      maxResultBytes: 1e6,
      memoryMb: 64,
      ...options,
    }));
  afterEach(async () => pool?.close());

  it("answers a job, and keeps the thread that asked free while a job spins for a second", async () => {
    const workers = open({ size: 2 });
    expect(await workers.run({ kind: "echo", text: "hello" })).toBe("HELLO");
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    expect(await Promise.all([workers.run({ kind: "spin", ms: 1000 }), workers.run({ kind: "spin", ms: 1000 })])).toEqual(["spun", "spun"]);
    delay.disable();
    // Far below the second each job spun for, however busy the machine.
    expect(delay.max / 1e6).toBeLessThan(800);
  });

  it("queues up to its bound, refuses more at once, and runs what waited", async () => {
    const workers = open({ size: 1, queue: 1 });
    const first = workers.run({ kind: "spin", ms: 500 });
    const second = workers.run({ kind: "echo", text: "waited" });
    expect(workers.load()).toEqual({ running: 1, waiting: 1 });
    await expect(workers.run({ kind: "echo", text: "too many" })).rejects.toBeInstanceOf(WorkerBusy);
    expect(await first).toBe("spun");
    expect(await second).toBe("WAITED");
    expect(workers.load()).toEqual({ running: 0, waiting: 0 });
  });

  it("stops a job past its time, its memory or its result size, says which, and goes on with a new worker", async () => {
    const workers = open({ size: 1, queue: 2, timeoutMs: 500 });
    const late = workers.run({ kind: "spin", ms: 60_000 });
    const next = workers.run({ kind: "echo", text: "after" });
    await expect(late).rejects.toMatchObject({ name: "WorkerFailed", reason: "timeout" });
    expect(await next).toBe("AFTER");

    await expect(workers.run({ kind: "fill" })).rejects.toBeInstanceOf(WorkerFailed);
    await expect(workers.run({ kind: "bytes", size: 2e6 })).rejects.toMatchObject({ reason: "too-large" });
    expect(await workers.run({ kind: "bytes", size: 1000 })).toHaveLength(1000);
    await expect(workers.run({ kind: "fail" })).rejects.toThrow("This job fails.");
    expect(await workers.run({ kind: "echo", text: "still here" })).toBe("STILL HERE");
  });
});
