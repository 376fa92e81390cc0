// One query for every request waiting on it (the page caches' version reads: app/models/page-version.server.ts,
// app/models/accounts/sessions.server.ts). A caller never gets an answer from a read that started before it asked (so a
// change committed before a request arrived is always seen by that request), yet under load one small query
// serves every request that arrived while the last one ran.

type Batch<R> = { keys: Set<string>; promise: Promise<R>; resolve: (value: R) => void; reject: (error: unknown) => void };

/** `read` is called with the keys asked for by the callers it answers (none, if no caller gave one). */
export function batchedRead<R>(read: (keys: string[]) => Promise<R>): (key?: string) => Promise<R> {
  let running: Promise<unknown> | null = null;
  let waiting: Batch<R> | null = null;

  function startWaiting() {
    if (running || !waiting) return;
    const batch = waiting;
    waiting = null;
    running = read([...batch.keys])
      .then(batch.resolve, batch.reject)
      .finally(() => {
        running = null;
        startWaiting();
      });
  }

  return function readBatched(key?: string): Promise<R> {
    if (!waiting) {
      let resolve!: Batch<R>["resolve"];
      let reject!: Batch<R>["reject"];
      const promise = new Promise<R>((res, rej) => ((resolve = res), (reject = rej)));
      waiting = { keys: new Set(), promise, resolve, reject };
      // Not at once: the requests that arrive in this turn of the event loop join this read (embedded PGlite
      // answers within the turn, so nothing would ever be waiting otherwise). Each of them arrived before it starts.
      if (!running) setImmediate(startWaiting);
    }
    if (key !== undefined) waiting.keys.add(key);
    return waiting.promise;
  };
}
