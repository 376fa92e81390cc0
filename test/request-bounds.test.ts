import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, registerMember, startServer, type TestServer } from "./http";

// Request bounds over real sockets: every request body is bounded before it is read (64 KB unless a
// route that takes files raises it, and those check who is asking first), and an answer sent before
// the body was read never leaves the keep-alive connection wedged for the next request.

let server: TestServer;
let port: number;

beforeAll(async () => {
  server = await startServer();
  port = Number(new URL(server.url).port);
});
afterAll(async () => {
  await server?.stop();
});

type Answer = { status: number; head: string; body: string };

/** A raw HTTP/1.1 connection that reads answers one at a time; half-open, it may go on sending after the server's end. */
function connection({ allowHalfOpen = false } = {}) {
  const socket = net.connect({ port, host: "127.0.0.1", allowHalfOpen });
  let buffer = Buffer.alloc(0);
  let closed = false;
  const errors: string[] = [];
  const waiters: (() => void)[] = [];
  socket.on("data", (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    waiters.splice(0).forEach((w) => w());
  });
  socket.on("close", () => {
    closed = true;
    waiters.splice(0).forEach((w) => w());
  });
  socket.on("error", (error: NodeJS.ErrnoException) => errors.push(error.code ?? error.message));
  const ready = new Promise<void>((resolve) => socket.once("connect", () => resolve()));

  /** The next complete answer, or null if none arrives within `ms` (or the connection closes first). */
  async function answer(ms = 1000): Promise<Answer | null> {
    const deadline = Date.now() + ms;
    for (;;) {
      const end = buffer.indexOf("\r\n\r\n");
      if (end >= 0) {
        const head = buffer.subarray(0, end).toString("latin1");
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? NaN);
        const chunked = /transfer-encoding: chunked/i.test(head);
        const rest = buffer.subarray(end + 4);
        let bodyLength: number | null = null;
        if (Number.isFinite(length)) bodyLength = rest.length >= length ? length : null;
        else if (chunked) {
          const terminator = rest.indexOf("0\r\n\r\n");
          bodyLength = terminator >= 0 ? terminator + 5 : null;
        } else bodyLength = closed ? rest.length : null;
        if (bodyLength !== null) {
          buffer = rest.subarray(bodyLength);
          return { status: Number(head.split(" ")[1]), head, body: rest.subarray(0, bodyLength).toString("utf8") };
        }
      }
      if (closed || Date.now() > deadline) return null;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
  }

  return {
    ready,
    write: (data: string | Buffer) => new Promise<void>((resolve) => socket.write(data, () => resolve())),
    answer,
    get closed() {
      return closed;
    },
    errors,
    /** Says it has sent everything; the promise is whether the server then closed its side. */
    finish: (ms: number) =>
      new Promise<boolean>((resolve) => {
        socket.end();
        if (closed) return resolve(true);
        const timer = setTimeout(() => resolve(false), ms);
        socket.once("close", () => (clearTimeout(timer), resolve(true)));
      }),
    close: () => socket.destroy(),
  };
}

const head = (method: string, path: string, headers: Record<string, string | number>) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("")}\r\n`;

const HEALTH = () => head("GET", "/healthz", {});

describe("a refused request never wedges its keep-alive connection", () => {
  const cases: { name: string; path: string; type: string; headers?: () => Promise<Record<string, string>> }[] = [
    { name: "a 200 KB form to /login (413 before reading)", path: "/login", type: "application/x-www-form-urlencoded" },
    {
      name: "a 200 KB multipart body to Create Memorial from a visitor (sent to sign in)",
      path: "/memorials/create",
      type: "multipart/form-data; boundary=----x",
    },
    {
      name: "a 200 KB JSON upload to the /api from a visitor (401)",
      path: "/api/memorials/00000000-0000-4000-8000-000000000000/media",
      type: "application/json",
    },
    { name: "a 200 KB form to an address nobody answers (404)", path: "/nothing/here", type: "application/x-www-form-urlencoded" },
    {
      name: "a 200 KB form from another site (403)",
      path: "/register",
      type: "application/x-www-form-urlencoded",
      headers: async () => ({ Origin: "https://evil.example" }),
    },
  ];

  it.each(cases)("$name: the next request on the same socket is answered within a second", async ({ path, type, headers }) => {
    const c = connection();
    await c.ready;
    const body = type.startsWith("multipart")
      ? Buffer.from(
          `------x\r\nContent-Disposition: form-data; name="media"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n${"x".repeat(200_000)}\r\n------x--\r\n`,
        )
      : Buffer.alloc(200_000, "a");
    await c.write(head("POST", path, { "Content-Type": type, "Content-Length": body.length, ...(await headers?.()) }));
    await c.write(body);
    const first = await c.answer(5000);
    expect(first?.status).toBeGreaterThanOrEqual(300);
    expect(first?.head).not.toMatch(/connection: close/i);
    await c.write(HEALTH());
    const second = await c.answer(1000);
    expect(second?.status, "the second request on the socket got no answer").toBe(200);
    c.close();
  });

  it("closes the connection rather than read a refused body larger than it will drain", async () => {
    const c = connection();
    await c.ready;
    await c.write(head("POST", "/login", { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": 50_000_000 }));
    const first = await c.answer(1000);
    expect(first?.status).toBe(413);
    expect(first?.head).toMatch(/connection: close/i);
    c.close();
    // And the server is as quick as ever for everyone else.
    expect((await client(server.url).get("/healthz")).status).toBe(200);
  });

  it("keeps reading what a client still sends after that answer, so the client sees the 413 and not a reset", async () => {
    // A browser or fetch() uploading 8 MB goes on sending after the early answer; closing with unread
    // bytes would reset the connection, and the client could lose the answer it had been sent.
    const c = connection({ allowHalfOpen: true });
    await c.ready;
    const total = 8 * 1024 * 1024;
    await c.write(head("POST", "/login", { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": total }));
    await c.write(Buffer.alloc(64 * 1024, "a"));
    const first = await c.answer(2000);
    expect(first?.status).toBe(413);
    expect(first?.head).toMatch(/connection: close/i);
    for (let sent = 64 * 1024; sent < total; sent += 256 * 1024) await c.write(Buffer.alloc(256 * 1024, "a"));
    expect(c.errors, "the server reset the connection while the client was still sending").toEqual([]);
    expect(await c.finish(3000), "the server closed its side once the client had finished").toBe(true);
    expect(c.errors).toEqual([]);
  });
});

describe("every request body is bounded before it is read", () => {
  it("answers a 200 MB anonymous post to a memorial page at once with 413, before a byte of it is sent", async () => {
    const owner = await registerMember(server.url);
    const memorial = await owner.api.post("/api/memorials", { firstName: "Body", lastName: "Bound", visibility: "public", isPublished: true });
    const c = connection();
    await c.ready;
    const started = Date.now();
    await c.write(head("POST", `/memorials/${memorial.json.id}`, { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": 200 * 1024 * 1024 }));
    const answer = await c.answer(1000);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(answer?.status).toBe(413);
    expect(answer?.head).toMatch(/content-type: text\/html/i);
    expect(answer?.body).toContain("That was more than this page can take");
    expect(answer?.body).toContain("64 KB");
    c.close();
  });

  it("stops reading a chunked body (no Content-Length) at the bound", async () => {
    const c = connection();
    await c.ready;
    await c.write(head("POST", "/register", { "Content-Type": "application/x-www-form-urlencoded", "Transfer-Encoding": "chunked" }));
    const chunk = "a".repeat(16_384);
    for (let i = 0; i < 5; i++) await c.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    const answer = await c.answer(2000);
    expect(answer?.status).toBe(413);
    // It never learns how long the rest is, so it does not wait for it: the connection is closed.
    expect(answer?.head).toMatch(/connection: close/i);
    c.close();
  });

  it("answers the /api with a JSON 413 message for a body over 64 KB, on a route that never raised it", async () => {
    const { api } = await registerMember(server.url);
    const res = await api.post("/api/feedback", { type: "ux_feedback", content: "x".repeat(70_000), rating: 4 });
    expect(res.status).toBe(413);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(res.json.message).toMatch(/larger than 64 KB/);
  });

  it("lets a route that takes files raise its bound: a 1 MB photo upload through the /api is read", async () => {
    const { api } = await registerMember(server.url);
    const memorial = await api.post("/api/memorials", { firstName: "Big", lastName: "Photo" });
    // Not a real photo: refused for what it is (415), which shows the 1.3 MB body was read, not cut at 64 KB.
    const res = await api.post(`/api/memorials/${memorial.json.id}/media`, {
      mediaData: Buffer.alloc(1_000_000, 7).toString("base64"),
      fileName: "a.png",
      fileType: "image/png",
    });
    expect(res.status).toBe(415);
  });

  it("checks who is asking before reading an upload: someone else's memorial is refused while the body is still unsent", async () => {
    const owner = await registerMember(server.url);
    const stranger = await registerMember(server.url);
    const memorial = await owner.api.post("/api/memorials", { firstName: "Not", lastName: "Yours" });
    for (const [path, cookie, expected] of [
      [`/api/memorials/${memorial.json.id}/media`, stranger.api.cookie, 404],
      [`/api/memorials/${memorial.json.id}/profile-image`, stranger.api.cookie, 404],
      [`/api/memorials/${memorial.json.id}/media`, "", 401],
      ["/api/auth/profile-picture", "", 401],
    ] as const) {
      const c = connection();
      await c.ready;
      // Ten megabytes announced, none sent: only an answer given before reading can arrive.
      await c.write(
        head(path.includes("profile-picture") ? "PUT" : "POST", path, {
          "Content-Type": "application/json",
          "Content-Length": 10_000_000,
          ...(cookie ? { Cookie: cookie } : {}),
        }),
      );
      const answer = await c.answer(1500);
      expect(answer?.status, path).toBe(expected);
      c.close();
    }
    for (const path of ["/memorials/create", `/memorials/${memorial.json.id}/edit`, "/account?index"]) {
      const c = connection();
      await c.ready;
      await c.write(head("POST", path, { "Content-Type": "multipart/form-data; boundary=x", "Content-Length": 10_000_000 }));
      const answer = await c.answer(1500);
      expect(answer?.status, path).toBe(302);
      expect(answer?.head).toMatch(/location: \/login/i);
      c.close();
    }
  });

  it("refuses a JSON or broken multipart body posted to a page's form with a page that says so (415, 400)", async () => {
    const visitor = client(server.url);
    const json = await visitor.request("POST", "/login", { body: '{"email":"a@b.c"}', headers: { "Content-Type": "application/json" } });
    expect(json.status).toBe(415);
    expect(json.text).toContain("This page takes a form");
    const broken = await visitor.request("POST", "/register", { body: "--x\r\nnot a part", headers: { "Content-Type": "multipart/form-data; boundary=x" } });
    expect(broken.status).toBe(400);
    expect(broken.text).toContain("The form could not be read");
  });

  it("answers TRACE and other methods a page does not take with 405 and Allow", async () => {
    const res = await client(server.url).request("PUT", "/login", { body: "a=b", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, POST");
    const c = connection();
    await c.ready;
    await c.write(head("TRACE", "/", {}));
    const trace = await c.answer(1000);
    expect(trace?.status).toBe(405);
    c.close();
  });

  it("refuses an address holding a NUL byte with 400, for a page and for the /api", async () => {
    const page = await client(server.url).get("/memorials?search=%00");
    expect(page.status).toBe(400);
    expect(page.text).toContain("This address cannot be read");
    const api = await client(server.url).get("/api/memorials?search=a%00");
    expect(api.status).toBe(400);
    expect(api.json.message).toMatch(/NUL/);
  });
});
