import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// The temporary files go to this test's own data folder (getEnv reads DATA_DIR on first use).
const dataDir = mkdtempSync(path.join(tmpdir(), "everlight-json-upload-"));
process.env.DATA_DIR = dataDir;
const { JsonUploadError, readJsonUpload } = await import("./json-upload.server");

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/**
 * What the /api accepted before uploads were streamed (the whole body parsed, then this decoder): the
 * streamed reader must accept and refuse exactly the same values, and decode them to the same bytes.
 */
function decodeWhole(value: unknown): Uint8Array | null {
  if (typeof value !== "string" || value.length === 0) return null;
  const prefix = /^data:(?:[\w.+-]+\/[\w.+-]+)?(?:;[\w.+-]+=[^;,]*)*;base64,/i.exec(value);
  if (value.startsWith("data:") && !prefix) return null;
  const payload = (prefix ? value.slice(prefix[0].length) : value).replace(/\s+/g, "");
  if (payload.length === 0 || payload.length % 4 === 1 || !/^[A-Za-z0-9+/]*={0,2}$/.test(payload)) return null;
  const bytes = Buffer.from(payload, "base64");
  return bytes.byteLength > 0 ? new Uint8Array(bytes) : null;
}

/** The text as a body stream, cut into pieces of `size` bytes (so escapes and prefixes fall across chunks). */
function bodyOf(text: string, size: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

const read = (text: string, size = 65536, maxBytes = 1024 * 1024) => readJsonUpload(bodyOf(text, size), { fileField: "mediaData", maxBytes });

const incomingFiles = () => (existsSync(path.join(dataDir, "incoming")) ? readdirSync(path.join(dataDir, "incoming"), { recursive: true }) : []);

const photo = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 37) % 256));
const b64 = photo.toString("base64");

// Values as the JSON text of mediaData (escapes as a client might write them).
const VALUES = [
  `"data:image/png;base64,${b64}"`,
  `"${b64}"`,
  `"DATA:IMAGE/PNG;BASE64,${b64}"`,
  `"data:;base64,${b64}"`,
  `"data:image/png;name=a.png;base64,${b64}"`,
  `"data:image/png;base64,${b64.slice(0, 100)}\\n${b64.slice(100)}"`,
  `"data:image/png;base64,${b64.replace(/\//g, "\\/")}"`,
  `"data:image\\/png;base64,${b64}"`,
  `"\\u0064ata:image/png;base64,${b64}"`,
  `"data:image/png;base64, ${b64.match(/.{1,76}/g)!.join("\\r\\n ")} "`,
  `"data:image/png;base64,QUJD"`,
  `"QQ=="`,
  `"QQ="`,
  `"QQ"`,
  `"Q"`,
  `"QUJDQ"`,
  `"${b64}Q"`,
  `"Q==="`,
  `"AB=C"`,
  `"=="`,
  `"="`,
  `"da"`,
  `"dat"`,
  `"data"`,
  `"data:"`,
  `"data:image/png,${b64}"`,
  `"data:image/png;base64"`,
  `"data:image/png;base64,"`,
  `"data:text/plain;base64,@@@@"`,
  `"${b64}!"`,
  `"${b64}\\u00e9"`,
  `"${b64}\\u00a0"`,
  `""`,
  `"   "`,
  `12`,
  `null`,
  `{"nested": "${b64}"}`,
  `["${b64}"]`,
];

describe("readJsonUpload: a base64 file decoded to disk as the body arrives", () => {
  for (const size of [1, 3, 7, 65536]) {
    it(`accepts and refuses the values the whole-body decoder did, to the same bytes, in chunks of ${size} bytes`, async () => {
      for (const value of VALUES) {
        const json = `{"fileName": "a.png", "mediaData": ${value}, "order": 2}`;
        const expected = decodeWhole((JSON.parse(json) as { mediaData: unknown }).mediaData);
        const upload = await read(json, size);
        try {
          const got = upload.file ? new Uint8Array(await upload.file.arrayBuffer()) : null;
          expect(got, value.slice(0, 60)).toEqual(expected);
          const body = upload.body as Record<string, unknown>;
          expect(body.fileName).toBe("a.png");
          expect(body.order).toBe(2);
          // The schema sees a string where a string was sent: "" when it was empty.
          if (value.startsWith('"')) expect(body.mediaData).toBe(value === '""' ? "" : "(file)");
          else expect(body.mediaData).toEqual(JSON.parse(value));
        } finally {
          await upload.discard();
        }
      }
      expect(incomingFiles()).toEqual([]);
    });
  }

  it("finds the field under an escaped name, and keeps the fields before and after it", async () => {
    const upload = await read(`{"caption":"Mum \\"at\\" the sea, {1990}","media\\u0044ata":"${b64}","fileType":"image/png"}`, 5);
    expect(new Uint8Array(await upload.file!.arrayBuffer())).toEqual(new Uint8Array(photo));
    expect(upload.body).toEqual({ caption: 'Mum "at" the sea, {1990}', mediaData: "(file)", fileType: "image/png" });
    await upload.discard();
  });

  it("takes the same name inside another field's object as an ordinary field", async () => {
    const upload = await read(`{"meta":{"mediaData":"QUJD"},"mediaData":"${b64}"}`, 4);
    expect(upload.body).toEqual({ meta: { mediaData: "QUJD" }, mediaData: "(file)" });
    expect(upload.file?.size).toBe(photo.length);
    await upload.discard();
  });

  it("refuses what is not JSON: a string left open, a raw line break or a bad escape inside the file, a second value", async () => {
    for (const text of [
      `{"mediaData":"${b64}`,
      `{"mediaData":"${b64.slice(0, 40)}\n${b64.slice(40)}"}`,
      `{"mediaData":"${b64}\\x"}`,
      `{"mediaData":"${b64}\\u12"}`,
      `{"mediaData":"${b64}"`,
      `{"mediaData":"${b64}"} {}`,
      `{"mediaData":"${b64}",}`,
      ``,
    ]) {
      const error = await read(text, 7).catch((e: unknown) => e);
      expect(error, text.slice(-20)).toBeInstanceOf(JsonUploadError);
      expect((error as InstanceType<typeof JsonUploadError>).reason).toBe("not-json");
    }
    expect(incomingFiles()).toEqual([]);
  });

  it("refuses a body past its bound as it arrives, and fields other than the file past 64 KB, keeping nothing", async () => {
    const json = `{"mediaData":"${b64}"}`;
    await expect(read(json, 100, json.length - 1)).rejects.toMatchObject({ reason: "too-large" });
    await expect(read(`{"caption":"${"x".repeat(70_000)}","mediaData":"${b64}"}`, 1000)).rejects.toMatchObject({ reason: "too-large" });
    // The bound is on the bytes, not on what they decode to: the file itself may be near it.
    const upload = await read(json, 100, json.length);
    expect(upload.file?.size).toBe(photo.length);
    await upload.discard();
    expect(incomingFiles()).toEqual([]);
  });

  it("refuses the file field twice rather than choosing one", async () => {
    await expect(read(`{"mediaData":"QUJD","mediaData":"${b64}"}`, 9)).rejects.toMatchObject({ reason: "duplicate-file" });
    expect(incomingFiles()).toEqual([]);
  });

  it("keeps the file on disk until discarded", async () => {
    const upload = await read(`{"mediaData":"${b64}"}`);
    expect(incomingFiles().length).toBeGreaterThan(0);
    await upload.discard();
    expect(incomingFiles()).toEqual([]);
  });
});
