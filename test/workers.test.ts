import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { client, serverDatabases, startServer, type TestServer } from "./http";
import { startSmtp } from "./smtp-server";

// On PostgreSQL `npm start` runs several server processes sharing the port (WORKERS, server.js).
// The built server with WORKERS=2 on a throw-away cluster: both processes answer (which process holds each
// connection is read from /proc, nothing is told to clients), a message queued goes out once, a process
// that dies is replaced (and the jobs with it), and SIGTERM stops every process. On the embedded database
// WORKERS>1 is refused politely: one process, and a warning that says why. A bad WORKERS stops the start.

/** The processes whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The fields after the command name (which may hold spaces): state, then the parent's pid.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) children.push(Number(entry));
    } catch {
      // The process ended meanwhile.
    }
  }
  return children.sort((a, b) => a - b);
}

function alive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The process among `pids` that holds the server's end of the TCP connection from our local port `clientPort`. */
function holderOf(serverPort: number, clientPort: number, pids: number[]): number | undefined {
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, "0");
  const row = readFileSync("/proc/net/tcp", "utf8")
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .find((f) => f[1]?.endsWith(`:${hex(serverPort)}`) && f[2]?.endsWith(`:${hex(clientPort)}`));
  if (!row) return undefined;
  const socket = `socket:[${row[9]}]`;
  return pids.find((pid) => {
    try {
      return readdirSync(`/proc/${pid}/fd`).some((fd) => readlinkSync(`/proc/${pid}/fd/${fd}`) === socket);
    } catch {
      return false;
    }
  });
}

/** A kept-alive connection that has had one whole answer to GET /healthz. */
async function openAnswered(server: TestServer): Promise<Socket> {
  const { hostname, port } = new URL(server.url);
  const socket = await new Promise<Socket>((resolve, reject) => {
    const s = connect(Number(port), hostname, () => resolve(s));
    s.once("error", reject);
  });
  let text = "";
  await new Promise<void>((resolve, reject) => {
    socket.on("data", (chunk) => {
      text += chunk.toString("latin1");
      // The whole answer: its JSON, sent plainly or as one chunk and the last.
      if (/^HTTP\/1\.1 200[\s\S]*\r\n\r\n[\s\S]*"database":"ok"\}(\r\n0\r\n\r\n)?$/.test(text)) resolve();
    });
    socket.once("error", reject);
    setTimeout(() => reject(new Error(`No whole answer on a kept-alive connection:\n${text}`)), 10_000).unref();
    socket.write(`GET /healthz HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
  });
  return socket;
}

async function until<T>(value: () => T | undefined | false, what: string, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const got = value();
    if (got) return got;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function sendContact(server: TestServer, email: string) {
  const sent = await client(server.url).post("/api/contact", {
    name: "Ann Lee",
    email,
    subject: "A question",
    message: "Is the memorial page kept for good?",
    type: "general",
  });
  expect(sent.status).toBe(201);
}

describe.runIf(serverDatabases().includes("postgres"))("WORKERS=2 on PostgreSQL", () => {
  it("answers from both processes, sends each queued email once, replaces a process that dies, and stops them all on SIGTERM", async () => {
    const smtp = await startSmtp();
    const server = await startServer({ WORKERS: "2", SMTP_URL: smtp.url, SUPPORT_EMAIL: "support@everlight.test" }, { database: "postgres" });
    try {
      // One "listening" line, saying how many processes serve; two processes under the primary.
      expect(server.output().match(/listening on/g)).toHaveLength(1);
      expect(server.output()).toContain("(2 server processes)");
      const workers = childrenOf(server.pid);
      expect(workers).toHaveLength(2);

      // Connections are shared out: each of six kept-alive connections had its answer, from both processes.
      const port = Number(new URL(server.url).port);
      const sockets = [];
      for (let i = 0; i < 6; i++) sockets.push(await openAnswered(server));
      const holders = sockets.map((s) => holderOf(port, s.localPort!, workers));
      for (const s of sockets) s.destroy();
      expect(holders.every((pid) => pid !== undefined)).toBe(true);
      expect(new Set(holders)).toEqual(new Set(workers));

      // Each contact message queues an acknowledgement and a copy for support: each goes out once.
      const senders = ["one", "two", "three", "four"].map((n) => `sender-${n}-${Date.now().toString(36)}@example.test`);
      for (const email of senders) await sendContact(server, email);
      await smtp.waitFor(8, 20_000);
      // Several rounds of both processes later (the mail worker wakes every second), still no second copy.
      await new Promise((r) => setTimeout(r, 3000));
      const to = smtp.recipients.map((r) => r.join(","));
      expect(to).toHaveLength(8);
      for (const email of senders) expect(to.filter((r) => r === email)).toHaveLength(1);
      expect(to.filter((r) => r === "support@everlight.test")).toHaveLength(4);

      // The first process (the one running the jobs) is killed: another takes its place, and the jobs.
      process.kill(workers[0], "SIGKILL");
      const replaced = await until(() => {
        const now = childrenOf(server.pid);
        return now.length === 2 && !now.includes(workers[0]) && now;
      }, "a new server process");
      expect(server.output()).toMatch(/A server process \(pid \d+\) ended unexpectedly \(SIGKILL\)/);
      expect((await fetch(new URL("/healthz", server.url), { headers: { Connection: "close" } })).status).toBe(200);
      const late = `sender-late-${Date.now().toString(36)}@example.test`;
      await sendContact(server, late);
      await smtp.waitFor(10, 20_000);
      expect(smtp.recipients.filter((r) => r.includes(late))).toHaveLength(1);

      // SIGTERM to the primary: every process stops, and it says so once.
      server.kill("SIGTERM");
      expect(await server.exited).toBe(0);
      expect(replaced.filter(alive)).toEqual([]);
      expect(server.output().match(/Stopped\./g)).toHaveLength(1);
    } finally {
      await server.stop();
      await smtp.stop();
    }
  }, 180_000);

  it("refuses to start when WORKERS is not a whole number of processes", async () => {
    await expect(startServer({ WORKERS: "0" }, { database: "postgres" })).rejects.toThrow(
      /exited with 1[\s\S]*Everlight could not start[\s\S]*WORKERS: WORKERS must be a whole number of server processes, 1 or more/,
    );
    await expect(startServer({ WORKERS: "two" }, { database: "postgres" })).rejects.toThrow(/WORKERS must be a whole number of server processes/);
  }, 120_000);
});

describe("WORKERS on the embedded database", () => {
  it("runs one process, and says why when more were asked for", async () => {
    const server = await startServer({ WORKERS: "3" }, { database: "pglite" });
    try {
      expect(server.output()).toContain("Warning: WORKERS=3 is ignored: the embedded database (PGlite) can be opened by one process only");
      expect(childrenOf(server.pid)).toEqual([]);
      expect((await fetch(new URL("/healthz", server.url))).status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
