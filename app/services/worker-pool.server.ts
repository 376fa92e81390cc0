import path from "node:path";
import { pathToFileURL } from "node:url";
import { parentPort, Worker, type Transferable } from "node:worker_threads";

// Work that would hold the thread answering requests for more than a moment (laying out a printed book
// with pdf-lib takes seconds of pure JavaScript) runs on worker threads instead. A pool starts its workers
// when first needed and stops them when idle; each does one job at a time. The bounds are what keep one
// person's request from becoming everyone's wait: at most `size` jobs at once, at most `queue` waiting
// (more are refused at once, with WorkerBusy), a time limit (from the moment the worker has loaded its
// module, so a slow start on a busy machine is not counted against the job) after which it is stopped, and
// a memory and result-size limit. A job's input and output are plain data (structured clone), with large
// byte arrays handed over rather than copied.

/** Every worker is busy and the queue is full: try again shortly. */
export class WorkerBusy extends Error {
  name = "WorkerBusy";
}

/** The job did not finish: it took too long, made too much, or its worker died (out of memory, or an error). */
export class WorkerFailed extends Error {
  name = "WorkerFailed";
  constructor(
    message: string,
    readonly reason: "timeout" | "too-large" | "failed",
  ) {
    super(message);
  }
}

export type WorkerPoolOptions = {
  /** The worker's module, from the project's root without extension (`server/book-worker`): built to build/server/<name>.js. */
  module: string;
  /** Jobs at once. */
  size: number;
  /** Jobs waiting at most; more are refused. */
  queue: number;
  timeoutMs: number;
  /** The largest result, in bytes (a result's `byteLength`, where it has one). */
  maxResultBytes: number;
  /** The worker's JavaScript heap, in MB: a job that needs more ends its worker, not the server. */
  memoryMb: number;
  /** A worker idle this long is stopped (its memory given back); the next job starts a new one. */
  idleMs?: number;
};

type Job = { input: unknown; transfer: Transferable[]; resolve: (value: unknown) => void; reject: (error: Error) => void };
type Slot = { worker: Worker; ready: boolean; job?: Job; timer?: NodeJS.Timeout; idle?: NodeJS.Timeout };
/** A worker says it is ready once its module is loaded, then answers each job. */
type Answer = { ok: true; value: unknown } | { ok: false; message: string };
type Reply = { ready: true } | Answer;

/** How long a worker may take to load its module: a job's time limit starts once it has. */
const STARTUP_MS = 30_000;

/**
 * The script a worker runs: the built module in production (`npm run build` writes it beside the server's
 * entry); from source (tests, `npm run dev`, the scripts) the TypeScript module, through a small loader,
 * since a worker thread does not inherit the loader of the process that starts it.
 */
function workerScript(module: string): { file: string; workerData?: { entry: string } } {
  if (import.meta.env?.PROD) return { file: path.resolve("build/server", `${path.basename(module)}.js`) };
  return { file: path.resolve("server/ts-worker.mjs"), workerData: { entry: pathToFileURL(path.resolve(`${module}.ts`)).href } };
}

export type WorkerPool<I, O> = {
  run(input: I, transfer?: Transferable[]): Promise<O>;
  /** Jobs running and waiting now. */
  load(): { running: number; waiting: number };
  close(): Promise<void>;
};

export function createWorkerPool<I, O>(options: WorkerPoolOptions): WorkerPool<I, O> {
  const slots: Slot[] = [];
  const waiting: Job[] = [];
  const idleMs = options.idleMs ?? 30_000;

  function start(): Slot {
    const script = workerScript(options.module);
    const worker = new Worker(script.file, {
      workerData: script.workerData,
      resourceLimits: { maxOldGenerationSizeMb: options.memoryMb },
    });
    const slot: Slot = { worker, ready: false };
    worker.on("message", (reply: Reply) => ("ready" in reply ? ready(slot) : finish(slot, reply)));
    worker.on("error", (error) => fail(slot, new WorkerFailed(`The worker stopped: ${error.message}`, "failed")));
    worker.on("exit", () => fail(slot, new WorkerFailed("The worker stopped.", "failed")));
    slots.push(slot);
    return slot;
  }

  function remove(slot: Slot) {
    const at = slots.indexOf(slot);
    if (at >= 0) slots.splice(at, 1);
    clearTimeout(slot.timer);
    clearTimeout(slot.idle);
  }

  function assign(slot: Slot, job: Job) {
    clearTimeout(slot.idle);
    slot.job = job;
    slot.worker.ref();
    if (!slot.ready) {
      slot.timer = setTimeout(() => fail(slot, new WorkerFailed("The worker did not start.", "failed")), STARTUP_MS);
      return;
    }
    send(slot, job);
  }

  function send(slot: Slot, job: Job) {
    clearTimeout(slot.timer);
    slot.timer = setTimeout(() => {
      // Stopped mid-job: nothing else can interrupt synchronous work on another thread.
      fail(slot, new WorkerFailed(`The job took longer than ${Math.round(options.timeoutMs / 1000)} s.`, "timeout"));
    }, options.timeoutMs);
    slot.worker.postMessage(job.input, job.transfer);
  }

  function ready(slot: Slot) {
    slot.ready = true;
    if (slot.job) send(slot, slot.job);
  }

  function next(slot: Slot) {
    const job = waiting.shift();
    if (job) return assign(slot, job);
    slot.job = undefined;
    // An idle worker does not keep the process alive, and is stopped after a while.
    slot.worker.unref();
    slot.idle = setTimeout(() => {
      remove(slot);
      void slot.worker.terminate();
    }, idleMs).unref();
  }

  function finish(slot: Slot, reply: Answer) {
    const job = slot.job;
    clearTimeout(slot.timer);
    if (!job) return;
    if (!reply.ok) job.reject(new WorkerFailed(reply.message, "failed"));
    else {
      const size = (reply.value as { byteLength?: number } | null)?.byteLength ?? 0;
      if (size > options.maxResultBytes) job.reject(new WorkerFailed(`The result is ${size} bytes, more than ${options.maxResultBytes}.`, "too-large"));
      else job.resolve(reply.value);
    }
    next(slot);
  }

  /** Ends this worker (its job, if any, rejected with `error`) and lets a new one take the next waiting job. */
  function fail(slot: Slot, error: WorkerFailed) {
    if (!slots.includes(slot)) return;
    remove(slot);
    slot.job?.reject(error);
    slot.job = undefined;
    void slot.worker.terminate();
    const job = waiting.shift();
    if (job) assign(start(), job);
  }

  return {
    run(input, transfer = []) {
      return new Promise<O>((resolve, reject) => {
        const job: Job = { input, transfer, resolve: resolve as (value: unknown) => void, reject };
        const free = slots.find((s) => !s.job);
        if (free) assign(free, job);
        else if (slots.length < options.size) assign(start(), job);
        else if (waiting.length < options.queue) waiting.push(job);
        else reject(new WorkerBusy("Every worker is busy and the queue is full."));
      });
    },
    load: () => ({ running: slots.filter((s) => s.job).length, waiting: waiting.length }),
    async close() {
      for (const job of waiting.splice(0)) job.reject(new WorkerFailed("The pool was closed.", "failed"));
      await Promise.all(
        [...slots].map((slot) => {
          remove(slot);
          slot.job?.reject(new WorkerFailed("The pool was closed.", "failed"));
          return slot.worker.terminate();
        }),
      );
    },
  };
}

/**
 * The worker's side: answers each job with `work`'s value (and the byte arrays it hands back rather than
 * copies). Called once by a worker module.
 */
export function serveJobs<I, O>(work: (input: I) => Promise<{ value: O; transfer?: Transferable[] }>) {
  if (!parentPort) throw new Error("serveJobs runs in a worker thread.");
  const port = parentPort;
  port.postMessage({ ready: true } satisfies Reply);
  port.on("message", (input: I) => {
    work(input).then(
      ({ value, transfer }) => port.postMessage({ ok: true, value } satisfies Answer, transfer ?? []),
      (error: unknown) => port.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) } satisfies Answer),
    );
  });
}
