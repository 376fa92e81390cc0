import { connect, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { serverDatabases, startServer, type TestServer } from "./http";

// Issue 25 §4: restarts drop nothing. The built server gets SIGTERM while a request is in flight (its body
// half sent) and another connection sits idle in keep-alive: the idle one is closed, new connections are
// refused, the one in flight gets its whole answer (and Connection: close), then the process exits 0.

function open(server: TestServer): Promise<Socket> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    socket.once("error", reject);
  });
}

/** Everything the socket receives until the server closes it. */
function readAll(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    socket.on("data", (chunk) => (text += chunk.toString("latin1")));
    socket.on("close", () => resolve(text));
    socket.on("error", () => {});
  });
}

async function until(condition: () => boolean, what: string) {
  const deadline = Date.now() + 15_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(serverDatabases())("a stop signal on %s", (database) => {
  it("lets the request in flight finish, closes idle keep-alive connections, refuses new ones, exits cleanly", async () => {
    const server = await startServer({}, { database });
    try {
      const host = new URL(server.url).host;
      // A request in flight: its body half sent.
      const body = JSON.stringify({
        name: "Ann Lee",
        email: "ann@example.test",
        subject: "Sent during a restart",
        message: "This message must not be lost.",
        type: "general",
      });
      const busy = await open(server);
      const busyText = readAll(busy);
      busy.write(
        `POST /api/contact HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nX-Forwarded-For: 10.77.0.1\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 40)}`,
      );
      // An idle keep-alive connection, after one whole answer (by then the post above is being read).
      const idle = await open(server);
      let idleSoFar = "";
      idle.on("data", (chunk) => (idleSoFar += chunk.toString("latin1")));
      const idleText = readAll(idle);
      idle.write(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
      await until(() => /^HTTP\/1\.1 200[\s\S]*\r\n\r\n[\s\S]+/.test(idleSoFar), "the idle connection's first answer");

      server.kill("SIGTERM");
      await until(() => /SIGTERM received/.test(server.output()), "the server to take the signal");

      // The idle connection is closed (after the one answer it had), new connections are refused.
      expect(await idleText).toMatch(/^HTTP\/1\.1 200/);
      await expect(open(server)).rejects.toThrow(/ECONNREFUSED/);
      // The request in flight finishes, whole.
      busy.write(body.slice(40));
      const answer = await busyText;
      expect(answer).toMatch(/^HTTP\/1\.1 201/);
      expect(answer).toMatch(/\r\nconnection: close\r\n/i);
      expect(answer).toContain('"status":"new"');
      expect(await server.exited).toBe(0);
      expect(server.output()).toContain("Stopped.");
    } finally {
      await server.stop();
    }
  }, 180_000);
});
