import { existsSync, readdirSync, statSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MEDIA_MESSAGES } from "~/models/media.server";
import { registerMember, startServer, type Client, type TestServer } from "./http";

// Issue 25 item 5: a memorial's photos and videos never sit on the server's heap. Each file part of the
// form is streamed to a temporary file as it arrives, cut off past the largest a video may be (the rest
// of it read and dropped, so the fields after it still arrive), stored from there, and the temporary
// files are gone once the post is answered. The memory figure (six parallel 240 MB posts) is a
// benchmark: bench/upload-memory.bench.ts, README "Performance".

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

  it("refuses a photo over its own limit once on disk, naming it, and stores nothing", async () => {
    const res = await post("/memorials/create", [
      text("firstName", "Big"),
      text("lastName", "Photo"),
      text("visibility", "public"),
      text("category", "individual"),
      text("intent", "publish"),
      { name: "media", filename: "scan.png", type: "image/png", head: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), bytes: 21 * MB },
    ]);
    expect(res.status).toBe(413);
    expect(res.text).toContain(`scan.png: ${MEDIA_MESSAGES.imageSize}`);
    expect(spooled()).toEqual([]);
  });
});
