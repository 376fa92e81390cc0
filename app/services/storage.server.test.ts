import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, openAsBlob, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Object storage behind one interface (storage.server.ts): on local disk, and in an S3-compatible
// bucket through the real @aws-sdk/client-s3 against a local S3 server (s3rver) started here
//. The environment is read once per module instance
// (env.server.ts caches it), so each backend gets fresh modules after the variables are set.

type S3rverInstance = { run(): Promise<{ port: number }>; close(): Promise<void> };
type S3rverOptions = { port: number; address: string; silent: boolean; directory: string; configureBuckets: { name: string }[] };
// s3rver ships no types: loaded with require and described by the little we use.
const S3rver = createRequire(import.meta.url)("s3rver") as new (options: S3rverOptions) => S3rverInstance;

const BUCKET = "everlight-test";
const ENV_KEYS = ["DATA_DIR", "S3_BUCKET", "S3_REGION", "S3_ENDPOINT", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "S3_FORCE_PATH_STYLE"] as const;
const savedEnv = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));

/** storage.server and media.server as a process started with these variables would have them. */
async function loadModules(env: Partial<Record<(typeof ENV_KEYS)[number], string>>) {
  for (const key of ENV_KEYS) delete process.env[key];
  Object.assign(process.env, env);
  vi.resetModules();
  const storage = await import("./storage.server");
  const media = await import("~/models/memorials/media.server");
  storage.resetStorageBackend();
  return { storage, media };
}

afterAll(() => {
  for (const key of ENV_KEYS) {
    if (savedEnv[key] === undefined) delete process.env[key];
    else process.env[key] = savedEnv[key];
  }
  vi.resetModules();
});

/** A camera-sized JPEG with EXIF metadata (which must not survive storage). */
const cameraJpeg = () =>
  sharp({ create: { width: 2000, height: 1200, channels: 3, background: { r: 90, g: 140, b: 200 } } })
    .withExif({ IFD0: { Make: "TestCam", Model: "Secret Location 51N" } })
    .jpeg({ quality: 80 })
    .toBuffer();

type Backend = {
  name: string;
  setUp: () => Promise<Partial<Record<(typeof ENV_KEYS)[number], string>>>;
  /** Every key stored under a prefix, straight from the backend (not through our interface). */
  keys: (prefix: string) => Promise<string[]>;
  /** The raw stored object's content type, straight from the backend. */
  storedType: (key: string) => Promise<string | undefined>;
  tearDown: () => Promise<void>;
};

const dataDir = mkdtempSync(path.join(tmpdir(), "everlight-storage-"));
const s3Dir = mkdtempSync(path.join(tmpdir(), "everlight-s3rver-"));
let s3rver: S3rverInstance | undefined;
let s3: S3Client | undefined;

const disk: Backend = {
  name: "local disk",
  setUp: async () => ({ DATA_DIR: dataDir }),
  keys: async (prefix) => {
    const root = path.join(dataDir, "uploads");
    const folder = path.join(root, ...prefix.split("/").filter(Boolean));
    if (!existsSync(folder)) return [];
    return readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && !entry.name.endsWith(".meta.json"))
      .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
      .sort();
  },
  storedType: async (key) => {
    const { readFile } = await import("node:fs/promises");
    const meta = JSON.parse(await readFile(path.join(dataDir, "uploads", ...key.split("/")) + ".meta.json", "utf8")) as { contentType?: string };
    return meta.contentType;
  },
  tearDown: async () => {},
};

const bucket: Backend = {
  name: "S3-compatible bucket (s3rver)",
  setUp: async () => {
    s3rver = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: s3Dir, configureBuckets: [{ name: BUCKET }] });
    const { port } = await s3rver.run();
    const endpoint = `http://127.0.0.1:${port}`;
    s3 = new S3Client({ region: "us-east-1", endpoint, forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
    // DATA_DIR too, so the test can show that nothing lands on local disk.
    return {
      DATA_DIR: dataDir,
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
    };
  },
  keys: async (prefix) => {
    const listed = await s3!.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
    return (listed.Contents ?? []).map((object) => object.Key!).sort();
  },
  storedType: async (key) => (await s3!.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))).ContentType,
  tearDown: async () => {
    s3?.destroy();
    await s3rver?.close();
  },
};

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(s3Dir, { recursive: true, force: true });
});

describe.each([disk, bucket])("storage on $name", (backend) => {
  let storage: Awaited<ReturnType<typeof loadModules>>["storage"];
  let media: Awaited<ReturnType<typeof loadModules>>["media"];
  const uploadsOnDisk = () => (existsSync(path.join(dataDir, "uploads")) ? readdirSync(path.join(dataDir, "uploads"), { recursive: true }) : []);

  beforeAll(async () => {
    rmSync(path.join(dataDir, "uploads"), { recursive: true, force: true });
    ({ storage, media } = await loadModules(await backend.setUp()));
  });
  afterAll(() => backend.tearDown());

  it("tells an object's size and type and streams its bytes, without reading it whole; a missing one is null (memorial exports)", async () => {
    const key = `tests/${randomUUID()}/clip.mp4`;
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 5, 9);
    await storage.putObject(key, bytes, "video/mp4");
    expect(await storage.statObject(key)).toEqual({ size: bytes.length, contentType: "video/mp4" });
    const stream = await storage.openObjectStream(key);
    const chunks: Buffer[] = [];
    for await (const chunk of stream!) chunks.push(Buffer.from(chunk as Uint8Array));
    // More than one chunk: read as a stream, not as one buffer.
    expect(chunks.length).toBeGreaterThan(1);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
    await storage.deleteObject(key);
    expect(await storage.statObject(key)).toBeNull();
    expect(await storage.openObjectStream(key)).toBeNull();
  });

  it("stores, reads back and deletes an object with its content type", async () => {
    const key = `tests/${randomUUID()}/note.webp`;
    const body = new Uint8Array([0x52, 0x49, 0x46, 0x46, 1, 2, 3, 250, 0, 255]);
    await storage.putObject(key, body, "image/webp");
    expect(await backend.keys("tests/")).toContain(key);
    expect(await backend.storedType(key)).toBe("image/webp");

    const read = await storage.getObject(key);
    expect(read).not.toBeNull();
    expect(read!.contentType).toBe("image/webp");
    expect(new Uint8Array(read!.body)).toEqual(body);

    // Writing again replaces the object, type included.
    await storage.putObject(key, new Uint8Array([9, 9]), "video/mp4");
    expect(await storage.getObject(key)).toEqual({ body: Buffer.from([9, 9]), contentType: "video/mp4" });

    await storage.deleteObject(key);
    expect(await storage.getObject(key)).toBeNull();
    expect(await backend.keys(key)).toEqual([]);
    // Deleting what is not there is not an error (as with S3).
    await expect(storage.deleteObject(key)).resolves.toBeUndefined();
  });

  it("answers null for a key that was never stored", async () => {
    expect(await storage.getObject(`tests/${randomUUID()}/missing.jpg`)).toBeNull();
  });

  it.each([
    ["a parent folder", "../outside.jpg"],
    ["a parent folder inside", "tests/../../etc/passwd"],
    ["an absolute path", "/etc/passwd"],
    ["a doubled slash", "tests//x.jpg"],
    ["a trailing slash", "tests/x/"],
    ["a hidden file", "tests/.env"],
    ["a backslash", "tests\\x.jpg"],
    ["a metadata file's name", "tests/x.jpg.meta.json"],
    ["a space", "tests/my photo.jpg"],
    ["nothing", ""],
    ["a key over 512 characters", `tests/${"a".repeat(510)}`],
  ])("refuses %s as a key, for every operation", async (_what, key) => {
    expect(storage.isValidKey(key)).toBe(false);
    await expect(storage.putObject(key, new Uint8Array([1]), "image/png")).rejects.toBeInstanceOf(storage.InvalidStorageKeyError);
    await expect(storage.getObject(key)).rejects.toBeInstanceOf(storage.InvalidStorageKeyError);
    await expect(storage.deleteObject(key)).rejects.toBeInstanceOf(storage.InvalidStorageKeyError);
    expect(storage.keyFromUrl(`/media/${key}`)).toBeNull();
  });

  it("maps keys to /media URLs and back, and nothing else to a key", () => {
    const key = `memorials/${randomUUID()}/${randomUUID()}/original.jpg`;
    expect(storage.objectUrl(key)).toBe(`/media/${key}`);
    expect(storage.keyFromUrl(storage.objectUrl(key))).toBe(key);
    expect(storage.keyFromUrl("https://example.com/media/x.jpg")).toBeNull();
    expect(storage.keyFromUrl("data:image/png;base64,AAAA")).toBeNull();
    expect(storage.keyFromUrl(null)).toBeNull();
  });

  it("stores a memorial's JPEG as a metadata-free original and three WebP widths, and removes them all", async () => {
    const memorialId = randomUUID();
    const jpeg = await cameraJpeg();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const { mediaUrl, mediaType } = await media.storeMemorialFile(memorialId, new Uint8Array(jpeg));
    expect(mediaType).toBe("image/jpeg");
    const match = new RegExp(`^/media/(memorials/${memorialId}/[0-9a-f-]{36})/original\\.jpg$`).exec(mediaUrl);
    expect(match, mediaUrl).not.toBeNull();
    const folder = match![1];
    const expectedKeys = [`${folder}/original.jpg`, ...media.IMAGE_WIDTHS.map((w) => `${folder}/w${w}.webp`)].sort();
    expect(await backend.keys(`memorials/${memorialId}/`)).toEqual(expectedKeys);
    if (backend === bucket) expect(uploadsOnDisk()).toEqual([]);

    const original = await storage.getObject(`${folder}/original.jpg`);
    expect(original!.contentType).toBe("image/jpeg");
    expect(await backend.storedType(`${folder}/original.jpg`)).toBe("image/jpeg");
    const originalMeta = await sharp(original!.body).metadata();
    expect(originalMeta).toMatchObject({ format: "jpeg", width: 2000, height: 1200 });
    expect(originalMeta.exif).toBeUndefined();

    for (const width of media.IMAGE_WIDTHS) {
      const variant = await storage.getObject(`${folder}/w${width}.webp`);
      expect(variant!.contentType).toBe("image/webp");
      expect(await backend.storedType(`${folder}/w${width}.webp`)).toBe("image/webp");
      expect(await sharp(variant!.body).metadata()).toMatchObject({ format: "webp", width, height: Math.round((1200 * width) / 2000) });
    }

    await media.deleteStoredMedia([mediaUrl]);
    expect(await backend.keys(`memorials/${memorialId}/`)).toEqual([]);
  });

  it("streams a video waiting on disk (an upload) into storage byte for byte, and refuses one over the limit", async () => {
    const memorialId = randomUUID();
    const video = new Uint8Array(3 * 1024 * 1024).map((_, i) => (i * 31) % 251);
    video.set([0, 0, 0, 0x18, ...new TextEncoder().encode("ftypmp42")]);
    const file = path.join(dataDir, `upload-${randomUUID()}`);
    writeFileSync(file, video);
    const { mediaUrl, mediaType } = await media.storeMemorialFile(memorialId, await openAsBlob(file));
    expect(mediaType).toBe("video/mp4");
    const stored = await storage.getObject(storage.keyFromUrl(mediaUrl)!);
    expect(stored!.contentType).toBe("video/mp4");
    expect(Buffer.compare(stored!.body, Buffer.from(video))).toBe(0);
    if (backend === bucket) expect(uploadsOnDisk()).toEqual([]);
    await media.deleteStoredMedia([mediaUrl]);

    // Its size is known from the disk, so a video over the limit is refused without reading it.
    const huge = await openAsBlob(file);
    Object.defineProperty(huge, "size", { value: media.MEDIA_LIMITS.videoBytes + 1 });
    await expect(media.storeMemorialFile(memorialId, huge)).rejects.toMatchObject({ status: 413, message: media.MEDIA_MESSAGES.videoSize });
    expect(await backend.keys(`memorials/${memorialId}/`)).toEqual([]);
    rmSync(file);
  });

  it("refuses a file that is not a photo or video, storing nothing", async () => {
    const memorialId = randomUUID();
    await expect(media.storeMemorialFile(memorialId, new TextEncoder().encode("<svg onload=alert(1)></svg>"))).rejects.toMatchObject({
      status: 415,
      message: media.MEDIA_MESSAGES.type,
    });
    expect(await backend.keys(`memorials/${memorialId}/`)).toEqual([]);
  });
});
