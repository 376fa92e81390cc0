import { randomBytes, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { DataFolderLock } from "~/services/data-lock.server";
import { isJobName, JOBS } from "./jobs";

// While a server holds the embedded database, nothing else may open it: `npm run backup` and `npm run jobs`
// ask the server to run the job instead. The server listens for that on 127.0.0.1 on a port of its own,
// and writes the port and a random token into its lock file (readable by its own user alone, in DATA_DIR);
// a request without the token is refused. The answer is the job's progress, one JSON line at a time, then
// its result: a backup takes minutes, and the command shows what is happening meanwhile.

/** One line of a job's answer. */
export type ControlLine = { log: string } | { result: unknown } | { error: string };

const MAX_BODY = 4096;

export function startControl(lock: DataFolderLock): Promise<{ close(): Promise<void> }> {
  const token = randomBytes(24).toString("hex");
  const expected = Buffer.from(`Bearer ${token}`);
  const running = new Set<Promise<unknown>>();
  const server = http.createServer((req, res) => {
    const given = Buffer.from(req.headers.authorization ?? "");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: "Not allowed." }));
      return;
    }
    const match = /^\/jobs\/([\w-]+)$/.exec(req.url ?? "");
    if (req.method !== "POST" || !match || !isJobName(match[1])) {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "No such job." }));
      return;
    }
    const job = JOBS[match[1]];
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
      if (body.length > MAX_BODY) req.destroy();
    });
    req.on("end", () => {
      let options: { withVaultKey?: boolean } = {};
      try {
        options = body ? (JSON.parse(body) as typeof options) : {};
      } catch {
        // No options: the job's defaults.
      }
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      const send = (line: ControlLine) => res.write(`${JSON.stringify(line, (_key, value: unknown) => (typeof value === "bigint" ? Number(value) : value))}\n`);
      const work = job
        .run({ log: (line) => send({ log: line }), withVaultKey: options.withVaultKey === true })
        .then(
          (result) => send({ result }),
          (error: unknown) => send({ error: error instanceof Error ? error.message : String(error) }),
        )
        .catch(() => {}) // the command went away mid-answer: nothing to tell it
        .finally(() => {
          res.end();
          running.delete(work);
        });
      running.add(work);
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (typeof address === "object" && address) lock.announceControl({ port: address.port, token });
      server.unref();
      resolve({
        async close() {
          await new Promise<void>((done) => server.close(() => done()));
          await Promise.allSettled(running);
        },
      });
    });
  });
}
