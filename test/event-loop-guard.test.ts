import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "~/services/password.server";
import { TRIBUTE_LIMITS } from "~/utils/validation/tribute-rules";
import { MEMORIAL_LIMITS } from "~/utils/validation/memorial";
import { BOOK_LIMITS } from "~/models/memorials/book.server";
import { BROWSE_SEARCH_MAX } from "~/utils/browse";
import { client, serverDatabases, startServer, type Client, type TestServer } from "./http";
import { pdfText } from "./pdf";

// No request may hold the thread that answers all the others. While the heaviest things a member can ask
// for run at once (the printed book of a memorial written to every limit with words that never break, a
// copy of it prepared in the background, the longest search), a probe asks the server every few
// milliseconds for an answer that needs no database and no file: none may wait behind more than 100 ms of
// the thread's work. On both databases: the embedded one's queries share the thread too.

/** CPU time the server's main thread (the one answering requests) has used, in ms: starvation by other processes does not count. */
function mainThreadCpuMs(pid: number) {
  const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

const UNBROKEN = (length: number, seed: string) => seed.repeat(Math.ceil(length / seed.length)).slice(0, length);

describe.each(serverDatabases())("the thread that answers requests, while the heaviest requests run, on %s", (database) => {
  let server: TestServer;
  let owner: Client;
  const memorialId = randomUUID();
  const ownerEmail = `owner-${randomBytes(4).toString("hex")}@example.test`;

  beforeAll(async () => {
    server = await startServer(
      {},
      {
        database,
        // Written straight into the database: a memorial at every limit the book reads.
        prepare: async (db) => {
          const ownerId = randomUUID();
          await db.sql.query(`INSERT INTO "users" ("id", "email", "firstName", "lastName", "password") VALUES ($1, $2, 'Wren', 'Writer', $3)`, [
            ownerId,
            ownerEmail,
            await hashPassword("Correct1horse"),
          ]);
          await db.sql.query(
            `INSERT INTO "memorial_records" ("id", "userId", "title", "firstName", "lastName", "biography", "isPublished", "visibility")
             VALUES ($1, $2, $3, 'Unbroken', 'Lines', $4, true, 'public')`,
            [memorialId, ownerId, UNBROKEN(MEMORIAL_LIMITS.title, "Remembered"), UNBROKEN(MEMORIAL_LIMITS.biography, "Unbrokenlifestory")],
          );
          await db.sql.query(
            `INSERT INTO "memorial_timeline_events" ("memorialId", "kind", "year", "title", "description")
             SELECT $1, 'other', 1900 + i % 100, repeat('Titleword', 13), repeat('Neverendingevent', 62)
             FROM generate_series(1, $2::int) AS i`,
            [memorialId, BOOK_LIMITS.timeline],
          );
          await db.sql.query(
            `INSERT INTO "tributes" ("memorialId", "authorName", "content", "isApproved", "approvedAt")
             SELECT $1, 'Writer ' || i, repeat('Unbrokentribute', $3::int / 15), true, now()
             FROM generate_series(1, $2::int) AS i`,
            [memorialId, BOOK_LIMITS.tributes, TRIBUTE_LIMITS.contentMax],
          );
        },
      },
    );
    owner = client(server.url);
    const login = await owner.post("/api/auth/login", { email: ownerEmail, password: "Correct1horse" });
    expect(login.status, login.text).toBe(200);
    // Photos large enough to cost something to print and to copy.
    for (let i = 0; i < 4; i++) {
      const photo = await sharp({
        create: { width: 2400, height: 1600, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 60 } },
      })
        .jpeg()
        .toBuffer();
      const added = await owner.post(`/api/memorials/${memorialId}/media`, {
        mediaData: `data:image/jpeg;base64,${photo.toString("base64")}`,
        fileName: `photo-${i}.jpg`,
        fileType: "image/jpeg",
      });
      expect(added.status, added.text).toBe(201);
    }
  });
  afterAll(async () => server?.stop());

  it("keeps every other request from waiting more than 100 ms of its work while the largest book, a copy and the longest search are made", async () => {
    // Each page once first: a route's first request compiles its code, which happens once in a server's life.
    for (const path of ["/memorials?search=warm", `/memorials/${memorialId}`]) expect((await client(server.url).get(path)).status).toBe(200);
    expect((await owner.get(`/memorials/${memorialId}/export`)).status).toBe(200);

    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    // The probe is refused before any route runs (a NUL byte in the address): no database, no file, only
    // the thread. What it waited for is the CPU time the server's main thread used meanwhile, which other
    // processes on a busy machine do not inflate, as they do the time on the clock. Each heavy request is
    // probed on its own, so that what one costs the thread is not added to another's.
    type Probe = { waitedMs: number; workMs: number; from: number; to: number };
    async function probing<T>(work: () => Promise<T>) {
      let running = true;
      const probes: Probe[] = [];
      const probe = (async () => {
        while (running) {
          const started = performance.now();
          const before = mainThreadCpuMs(server.pid);
          const res = await fetch(`${server.url}/probe%00`);
          await res.arrayBuffer();
          const ended = performance.now();
          probes.push({ waitedMs: ended - started, workMs: mainThreadCpuMs(server.pid) - before, from: started, to: ended });
          expect(res.status).toBe(400);
          await pause(5);
        }
      })();
      try {
        return { result: await work(), probes };
      } finally {
        running = false;
        await probe;
      }
    }
    const worstOf = (probes: Probe[]) => probes.reduce((a, b) => (b.workMs > a.workMs ? b : a));

    const book = await probing(async () => {
      const res = await fetch(`${server.url}/memorials/${memorialId}/book`, { headers: { Cookie: owner.cookie, "X-Forwarded-For": owner.ip } });
      return { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()) };
    });
    const search = await probing(() => client(server.url).get(`/memorials?search=${encodeURIComponent(UNBROKEN(BROWSE_SEARCH_MAX, "a lin "))}`));
    const exportPage = `/memorials/${memorialId}/export`;
    // The test's own looks at the progress page render a page on the same thread: a probe that waited
    // beside one measures that page too, not the copy, and is left out of the copy's answers.
    const looks: [number, number][] = [];
    const copy = await probing(async () => {
      const asked = await owner.request("POST", exportPage, {
        body: "",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
      });
      expect([302, 303]).toContain(asked.status);
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        const from = performance.now();
        const page = await owner.get(exportPage);
        looks.push([from, performance.now()]);
        if (page.text.includes("Your copy is ready")) return true;
        await pause(500);
      }
      return false;
    });

    expect(book.result.status).toBe(200);
    const text = (await pdfText(book.result.bytes)).replace(/\s+/g, "");
    // Every character of the unbroken words is printed, cut where a line ends.
    expect(text).toContain(UNBROKEN(400, "Unbrokentribute"));
    expect(search.result.status).toBe(200);
    expect(copy.result).toBe(true);
    const besideNoLook = copy.probes.filter((p) => !looks.some(([from, to]) => p.from < to && from < p.to));
    expect(besideNoLook.length).toBeGreaterThan(copy.probes.length / 2);
    for (const [what, { probes }] of Object.entries({ book, search, copy: { probes: besideNoLook } })) {
      const worst = worstOf(probes);
      expect(
        worst.workMs,
        `while the ${what} was made, of ${probes.length} answers one waited for ${worst.workMs} ms of the thread's work (${worst.waitedMs.toFixed(0)} ms in all)`,
      ).toBeLessThan(100);
    }
    // The book takes seconds: the probe asked all along.
    expect(book.probes.length).toBeGreaterThan(50);
  });
});
