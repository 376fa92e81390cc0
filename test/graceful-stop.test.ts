import { randomBytes } from "node:crypto";
import { connect, type Socket } from "node:net";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { client, serverDatabases, startServer, type TestServer } from "./http";

// Restarts drop nothing. The built server gets SIGTERM while a request is in flight (its body
// half sent) and another connection sits idle in keep-alive: the idle one is closed, new connections are
// refused, the one in flight gets its whole answer (and Connection: close), then the process exits 0.
// Several requests in flight at once (a sign-in, a contact message, an upload) all finish; a request whose
// body never finishes holds the stop for STOP_GRACE_MS only (here 1 s, 10 s by default), then its
// connection is closed and the process exits.

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

/** A POST whose headers and first `sent` bytes of body have gone out; `finish` sends the rest. */
async function startPost(server: TestServer, path: string, body: string, headers: Record<string, string> = {}, sent = 20) {
  const socket = await open(server);
  const answer = readAll(socket);
  const head = Object.entries({
    Host: new URL(server.url).host,
    "Content-Type": "application/json",
    "X-Forwarded-For": `10.78.${randomBytes(1)[0]}.${randomBytes(1)[0]}`,
    "Content-Length": String(Buffer.byteLength(body)),
    ...headers,
  })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n${body.slice(0, sent)}`);
  return { answer, finish: () => socket.write(body.slice(sent)) };
}

/** Waits until the server has read the headers of everything sent before (one whole answer on a new connection). */
async function roundTrip(server: TestServer) {
  expect((await fetch(new URL("/healthz", server.url), { headers: { Connection: "close" } })).status).toBe(200);
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

  it("lets several requests in flight at once finish: a sign-in, a contact message and a photo upload", async () => {
    const server = await startServer({}, { database });
    try {
      const email = `stop-${randomBytes(5).toString("hex")}@example.test`;
      const member = client(server.url);
      expect((await member.post("/api/auth/register", { firstName: "Stella", lastName: "Stop", email, password: "Correct1horse" })).status).toBe(201);
      const memorial = await member.post("/api/memorials", { firstName: "Edith", lastName: "Hart", visibility: "private" });
      expect(memorial.status).toBe(201);
      const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 90, g: 140, b: 200 } } })
        .png()
        .toBuffer();

      const signIn = await startPost(server, "/api/auth/login", JSON.stringify({ email, password: "Correct1horse" }));
      const contact = await startPost(
        server,
        "/api/contact",
        JSON.stringify({
          name: "Ann Lee",
          email: "ann@example.test",
          subject: "Sent during a restart",
          message: "This message must not be lost.",
          type: "general",
        }),
      );
      const upload = await startPost(
        server,
        `/api/memorials/${memorial.json.id}/media`,
        JSON.stringify({ mediaData: `data:image/png;base64,${png.toString("base64")}`, fileName: "edith.png", fileType: "image/png" }),
        { Cookie: member.cookie },
        200,
      );
      await roundTrip(server);

      server.kill("SIGTERM");
      await until(() => /SIGTERM received/.test(server.output()), "the server to take the signal");
      await expect(open(server)).rejects.toThrow(/ECONNREFUSED/);

      for (const request of [signIn, contact, upload]) request.finish();
      const [signedIn, sent, uploaded] = await Promise.all([signIn.answer, contact.answer, upload.answer]);
      expect(signedIn).toMatch(/^HTTP\/1\.1 200/);
      expect(signedIn).toMatch(/\r\nset-cookie: /i);
      expect(signedIn).toContain(email);
      expect(sent).toMatch(/^HTTP\/1\.1 201/);
      expect(sent).toContain('"status":"new"');
      expect(uploaded).toMatch(/^HTTP\/1\.1 201/);
      expect(uploaded).toContain('"mediaUrl"');
      for (const answer of [signedIn, sent, uploaded]) expect(answer).toMatch(/\r\nconnection: close\r\n/i);
      expect(await server.exited).toBe(0);
      expect(server.output()).toContain("Stopped.");
      expect(server.output()).not.toContain("still running");
    } finally {
      await server.stop();
    }
  }, 180_000);

  it("a request whose body never finishes holds the stop for STOP_GRACE_MS only, then the process exits", async () => {
    const server = await startServer({ STOP_GRACE_MS: "1000" }, { database });
    try {
      // Says about 2,000 bytes are coming, sends 20, then nothing more.
      const stalled = await startPost(server, "/api/contact", JSON.stringify({ message: "x".repeat(1970) }));
      await roundTrip(server);

      const signalled = Date.now();
      server.kill("SIGTERM");
      const code = await server.exited;
      const took = Date.now() - signalled;
      expect(code).toBe(0);
      // It waited for the request (the grace), then no longer than it had to (the default would be 10 s).
      expect(took).toBeGreaterThanOrEqual(1000);
      expect(took).toBeLessThan(8000);
      expect(server.output()).toContain("1 request(s) still running after 1 s: closing their connections.");
      expect(server.output()).toContain("Stopped.");
      // Its connection was closed, without an answer.
      expect(await stalled.answer).toBe("");
    } finally {
      await server.stop();
    }
  }, 180_000);
});

describe("STOP_GRACE_MS", () => {
  it("a value that is not a number of milliseconds stops the start with a clear message", async () => {
    await expect(startServer({ STOP_GRACE_MS: "ten seconds" }, { database: "pglite" })).rejects.toThrow(
      /STOP_GRACE_MS must be a whole number of milliseconds between 0 and 600000/,
    );
  }, 120_000);
});
