import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MEDIA_MESSAGES } from "~/models/memorials/media.server";
import { MEDIA_LIMITS } from "~/utils/upload-limits";
import { registerMember, startServer, type Client, type TestServer } from "./http";

// A memorial's photos and videos never sit on the server's heap. Each file part of the
// form is streamed to a temporary file as it arrives, cut off past its own limit (a photo's or a
// video's, by its declared type; the rest of it read and dropped, so the fields after it still arrive),
// stored from there, and the temporary files are gone once the post is answered. The /api's base64
// uploads are decoded to a temporary file as they arrive. The memory figures (six parallel 240 MB
// posts to the form, six parallel 133 MB posts to the /api) are a benchmark:
// bench/upload-memory.bench.ts, docs/performance.md; the /api's bound is also tested here.

let server: TestServer;
let owner: Client;
let ownerId: string;

beforeAll(async () => {
  server = await startServer();
  ({ api: owner, id: ownerId } = await registerMember(server.url));
});
afterAll(async () => {
  await server?.stop();
});

const MB = 1024 * 1024;
const BOUNDARY = "----everlight-upload-test";

type Part = { name: string; value: string } | { name: string; filename: string; type: string; head: Uint8Array; bytes: number };

/** An MP4's first bytes (an `ftyp` box), which is what the server goes by. */
const MP4_HEAD = new Uint8Array([0, 0, 0, 0x18, ...new TextEncoder().encode("ftypmp42"), 0, 0, 0, 0]);

/** The byte at `i` of a generated file: the same on both sides, so what was stored can be compared. */
const byteAt = (i: number) => (i * 31 + 7) % 251;

/** The parts as a multipart body, generated while it is sent: the test never holds a large file either. */
async function* multipart(parts: Part[]) {
  const encoder = new TextEncoder();
  for (const part of parts) {
    if ("value" in part) {
      yield encoder.encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`);
      continue;
    }
    yield encoder.encode(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type}\r\n\r\n`,
    );
    for (let offset = 0; offset < part.bytes; offset += MB) {
      const chunk = new Uint8Array(Math.min(MB, part.bytes - offset)).map((_, i) => byteAt(offset + i));
      if (offset === 0) chunk.set(part.head.subarray(0, chunk.length));
      yield chunk;
    }
    yield encoder.encode("\r\n");
  }
  yield encoder.encode(`--${BOUNDARY}--\r\n`);
}

/** Posts the parts chunked (no Content-Length, as a slow phone's upload may come), as the member. */
function post(pathname: string, parts: Part[], onProgress?: (sent: number) => Promise<void>) {
  const url = new URL(pathname, server.url);
  return new Promise<{ status: number; location: string | undefined; text: string }>((resolve, reject) => {
    const req = http.request(url, {
      method: "POST",
      agent: false,
      headers: {
        Cookie: owner.cookie,
        "X-Forwarded-For": owner.ip,
        "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`,
        "Transfer-Encoding": "chunked",
      },
    });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, text: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    void (async () => {
      let sent = 0;
      for await (const chunk of multipart(parts)) {
        if (!req.write(chunk)) await new Promise((r) => req.once("drain", r));
        sent += chunk.byteLength;
        await onProgress?.(sent);
      }
      req.end();
    })().catch(reject);
  });
}

const incoming = () => path.join(server.dataDir, "incoming");
/** Every temporary upload file on disk now, with its size. */
function spooled(): number[] {
  if (!existsSync(incoming())) return [];
  return readdirSync(incoming(), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => statSync(path.join(entry.parentPath, entry.name)).size);
}

const text = (name: string, value: string): Part => ({ name, value });
const PNG_HEAD = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe("a memorial's files go to disk as they arrive, never to memory", () => {
  it("stores a portrait, a video and a photo of a new memorial in the order sent, byte for byte, and leaves no temporary file", async () => {
    const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#7a9" } })
      .jpeg()
      .toBuffer();
    const res = await post("/memorials/create", [
      text("firstName", "Streamed"),
      text("lastName", "Upload"),
      text("visibility", "public"),
      text("category", "individual"),
      text("intent", "publish"),
      { name: "profileImage", filename: "portrait.jpg", type: "image/jpeg", head: photo, bytes: photo.length },
      { name: "media", filename: "garden.mp4", type: "video/mp4", head: MP4_HEAD, bytes: 12 * MB },
      { name: "media", filename: "photo.jpg", type: "image/jpeg", head: photo, bytes: photo.length },
    ]);
    expect(res.status, res.text.slice(0, 300)).toBe(303);
    const id = /^\/memorials\/([^/?#]+)$/.exec(res.location ?? "")?.[1];
    expect(id, res.location).toBeDefined();

    const media = (await owner.get(`/api/memorials/${id}/media`)).json as { mediaUrl: string; mediaType: string; order: number }[];
    expect(media.map((m) => [m.order, m.mediaType])).toEqual([
      [0, "video/mp4"],
      [1, "image/jpeg"],
    ]);
    const video = await fetch(new URL(media[0].mediaUrl, server.url));
    const stored = new Uint8Array(await video.arrayBuffer());
    expect(stored.length).toBe(12 * MB);
    expect(stored.subarray(0, MP4_HEAD.length)).toEqual(MP4_HEAD);
    const mismatch = stored.findIndex((byte, i) => i >= MP4_HEAD.length && byte !== byteAt(i));
    expect(mismatch).toBe(-1);
    expect((await owner.get(`/api/memorials/${id}`)).json.profileImageUrl).toMatch(/^\/media\/memorials\//);
    expect(spooled()).toEqual([]);
  });

  it("holds a large file on disk while it is still arriving", async () => {
    let seenOnDisk = 0;
    const res = await post(
      "/memorials/create",
      [
        text("firstName", "Slow"),
        text("lastName", "Phone"),
        text("visibility", "public"),
        text("category", "individual"),
        text("intent", "publish"),
        { name: "media", filename: "long.mp4", type: "video/mp4", head: MP4_HEAD, bytes: 40 * MB },
      ],
      async (sent) => {
        // Halfway through the video, the upload pauses until the server has written what it received.
        if (seenOnDisk || sent < 20 * MB) return;
        const deadline = Date.now() + 20_000;
        while (Date.now() < deadline && !seenOnDisk) {
          seenOnDisk = spooled().find((size) => size >= 16 * MB) ?? 0;
          if (!seenOnDisk) await new Promise((r) => setTimeout(r, 50));
        }
        if (!seenOnDisk) seenOnDisk = -1;
      },
    );
    expect(seenOnDisk, "the first half of the video was on disk before the rest was sent").toBeGreaterThanOrEqual(16 * MB);
    expect(res.status).toBe(303);
    expect(spooled()).toEqual([]);
  });

  it("cuts a video over the limit off as it arrives: 413 with the reason beside the field, what was typed after it kept, nothing stored", async () => {
    const before = (await owner.get(`/api/memorials?userId=${ownerId}`)).text;
    const res = await post("/memorials/create", [
      text("firstName", "Too"),
      text("visibility", "public"),
      text("category", "individual"),
      text("intent", "publish"),
      { name: "media", filename: "whole-wedding.mp4", type: "video/mp4", head: MP4_HEAD, bytes: 101 * MB },
      text("lastName", "Long"),
      text("biography", "Typed after the video was chosen."),
    ]);
    expect(res.status).toBe(413);
    expect(res.text).toContain(`whole-wedding.mp4: ${MEDIA_MESSAGES.videoSize}`);
    expect(res.text).toContain("Typed after the video was chosen.");
    expect(res.text).toMatch(/name="lastName"[^>]*value="Long"|value="Long"[^>]*name="lastName"/);
    expect((await owner.get(`/api/memorials?userId=${ownerId}`)).text).toBe(before);
    expect(spooled()).toEqual([]);
  });

  it("cuts a photo over its own limit off as it arrives (not at the video limit): 413 naming it beside the field, nothing kept", async () => {
    // Every size the photo's temporary file had while the post was on its way.
    let largestOnDisk = 0;
    let cutSeen = false;
    let waited = false;
    const res = await post(
      "/memorials/create",
      [
        text("firstName", "Big"),
        text("lastName", "Photo"),
        text("visibility", "public"),
        text("category", "individual"),
        text("intent", "publish"),
        { name: "media", filename: "scan.png", type: "image/png", head: PNG_HEAD, bytes: 60 * MB },
        text("biography", "Typed after the photo was chosen."),
      ],
      async (sent) => {
        largestOnDisk = Math.max(largestOnDisk, ...spooled());
        // Well past the photo limit, the upload pauses until the server has caught up: the file on
        // disk has stopped at the limit while the rest of the photo is still being sent.
        if (waited || sent < 45 * MB) return;
        waited = true;
        const deadline = Date.now() + 20_000;
        while (Date.now() < deadline && !cutSeen) {
          cutSeen = spooled().includes(MEDIA_LIMITS.imageBytes);
          if (!cutSeen) await new Promise((r) => setTimeout(r, 50));
        }
      },
    );
    expect(cutSeen, "the photo's file stopped at the photo limit while the rest was arriving").toBe(true);
    expect(largestOnDisk).toBeLessThanOrEqual(MEDIA_LIMITS.imageBytes);
    expect(res.status).toBe(413);
    expect(res.text).toContain(`scan.png: ${MEDIA_MESSAGES.imageSize}`);
    expect(res.text).toContain("Typed after the photo was chosen.");
    expect(spooled()).toEqual([]);
  });

  it("still refuses a photo one byte over its limit", async () => {
    const over = await post("/memorials/create", [
      text("firstName", "Just"),
      text("lastName", "Over"),
      text("visibility", "public"),
      text("category", "individual"),
      text("intent", "publish"),
      { name: "media", filename: "over.png", type: "image/png", head: PNG_HEAD, bytes: MEDIA_LIMITS.imageBytes + 1 },
    ]);
    expect(over.status).toBe(413);
    expect(over.text).toContain(`over.png: ${MEDIA_MESSAGES.imageSize}`);
    expect(spooled()).toEqual([]);
  });

  it("cuts a part sent as a photo off at the photo limit even when its bytes are a video, and says so as for a photo", async () => {
    const res = await post("/memorials/create", [
      text("firstName", "Odd"),
      text("lastName", "Label"),
      text("visibility", "public"),
      text("category", "individual"),
      text("intent", "publish"),
      { name: "media", filename: "clip.jpg", type: "image/jpeg", head: MP4_HEAD, bytes: MEDIA_LIMITS.imageBytes + MB },
    ]);
    expect(res.status).toBe(413);
    expect(res.text).toContain(`clip.jpg: ${MEDIA_MESSAGES.imageSize}`);
    expect(spooled()).toEqual([]);
  });
});

// ------------------------------------------------------------------ the /api's base64 uploads

/**
 * Posts `{ fileName, fileType, [field]: "data:<type>;base64,…", order }` to the /api as the member,
 * chunked, the base64 generated while it is sent (`bytes` of a file beginning with `head`).
 */
function postBase64(pathname: string, field: string, file: { type: string; head: Uint8Array; bytes: number }, as: Client = owner) {
  const url = new URL(pathname, server.url);
  return new Promise<{ status: number; json: { message?: string } & Record<string, unknown> }>((resolve, reject) => {
    const req = http.request(url, {
      method: "POST",
      agent: false,
      headers: { Cookie: as.cookie, "X-Forwarded-For": as.ip, "Content-Type": "application/json", "Transfer-Encoding": "chunked" },
    });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        try {
          resolve({ status: res.statusCode ?? 0, json: JSON.parse(body) });
        } catch {
          resolve({ status: res.statusCode ?? 0, json: { message: body } });
        }
      });
    });
    // A refused body may be cut off by the server: the answer is what counts.
    req.on("error", (error) => (req.writableEnded ? reject(error) : undefined));
    const write = async (chunk: string | Uint8Array) => {
      if (req.destroyed) return;
      if (!req.write(chunk)) await new Promise((r) => req.once("drain", r));
    };
    void (async () => {
      await write(`{"fileName":"upload","fileType":${JSON.stringify(file.type)},"${field}":"data:${file.type};base64,`);
      // 3 MB at a time: a multiple of 3 bytes, so the pieces' base64 joins up.
      const piece = 3 * MB;
      for (let offset = 0; offset < file.bytes; offset += piece) {
        const chunk = new Uint8Array(Math.min(piece, file.bytes - offset)).map((_, i) => byteAt(offset + i));
        if (offset === 0) chunk.set(file.head.subarray(0, chunk.length));
        await write(Buffer.from(chunk).toString("base64"));
      }
      await write('"}');
      req.end();
    })().catch(reject);
  });
}

/** The server process's resident memory now, in MB (as the upload benchmark reads it). */
function serverRssMb() {
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, "utf8"))?.[1] ?? NaN);
  return kb / 1024;
}

describe("the /api's base64 uploads are decoded to disk as they arrive, never held in memory", () => {
  let memorialId: string;
  beforeAll(async () => {
    const res = await owner.post("/api/memorials", { firstName: "Api", lastName: "Upload", visibility: "public", isPublished: true });
    expect(res.status, res.text).toBe(201);
    memorialId = res.json.id;
  });

  it("stores a video sent as a data URL byte for byte, and a portrait, and leaves no temporary file", async () => {
    const res = await postBase64(`/api/memorials/${memorialId}/media`, "mediaData", { type: "video/mp4", head: MP4_HEAD, bytes: 12 * MB + 1 });
    expect(res.status, res.json.message).toBe(201);
    expect(res.json.mediaType).toBe("video/mp4");
    const stored = new Uint8Array(await (await fetch(new URL(res.json.mediaUrl as string, server.url))).arrayBuffer());
    expect(stored.length).toBe(12 * MB + 1);
    expect(stored.subarray(0, MP4_HEAD.length)).toEqual(MP4_HEAD);
    expect(stored.findIndex((byte, i) => i >= MP4_HEAD.length && byte !== byteAt(i))).toBe(-1);

    const photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: "#a79" } })
      .jpeg()
      .toBuffer();
    const portrait = await postBase64(`/api/memorials/${memorialId}/profile-image`, "imageData", { type: "image/jpeg", head: photo, bytes: photo.length });
    expect(portrait.status, portrait.json.message).toBe(200);
    expect(portrait.json.profileImageUrl).toMatch(/^\/media\/memorials\//);
    expect(spooled()).toEqual([]);
  });

  it("refuses a video over the limit as it arrives (413, the video message) and one that is not base64 (400), keeping nothing", async () => {
    const before = (await owner.get(`/api/memorials/${memorialId}/media`)).json as unknown[];
    const tooLong = await postBase64(`/api/memorials/${memorialId}/media`, "mediaData", {
      type: "video/mp4",
      head: MP4_HEAD,
      bytes: MEDIA_LIMITS.videoBytes + MB,
    });
    expect(tooLong.status).toBe(413);
    expect(tooLong.json.message).toBe(MEDIA_MESSAGES.videoSize);

    const notBase64 = await owner.post(`/api/memorials/${memorialId}/media`, { mediaData: `data:video/mp4;base64,${"A".repeat(4000)}!` });
    expect(notBase64.status).toBe(400);
    expect(notBase64.json.message).toBe(MEDIA_MESSAGES.badDataUrl);
    expect((await owner.get(`/api/memorials/${memorialId}/media`)).json).toEqual(before);
    expect(spooled()).toEqual([]);
  });

  it("six parallel 60 MB videos (80 MB of base64 each) move the server's memory by under 200 MB, and all are stored", { timeout: 240_000 }, async () => {
    // The server settles after the uploads before it.
    await new Promise((r) => setTimeout(r, 1500));
    const baseline = serverRssMb();
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, serverRssMb())), 50);
    let statuses: number[];
    try {
      const posts = Array.from({ length: 6 }, () =>
        postBase64(`/api/memorials/${memorialId}/media`, "mediaData", { type: "video/mp4", head: MP4_HEAD, bytes: 60 * MB }),
      );
      statuses = (await Promise.all(posts)).map((r) => r.status);
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, serverRssMb());
    expect(statuses).toEqual([201, 201, 201, 201, 201, 201]);
    expect(peak - baseline, `RSS ${baseline.toFixed(0)} → ${peak.toFixed(0)} MB`).toBeLessThan(200);
    expect(spooled()).toEqual([]);
  });
});
