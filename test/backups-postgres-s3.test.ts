import { readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase, pgliteDirectory } from "~/services/db.server";
import { command, dataUrl, freshFolder, lastLine, rowsOf, SLOW_TEST_MS } from "./backup-commands";
import { createPostgresDatabase } from "./databases";
import { client, registerMember, startServer, type TestServer } from "./http";

// Data that outlives the machine on PostgreSQL and in buckets: two instances started at once on an empty
// database, the scheduled backup made once by two instances, an archive of PostgreSQL restored into the
// embedded database, the purge from the command line; uploads in one bucket backed up into another and
// restored from there. The embedded database: test/backups.test.ts.

const postgresSkip = inject("postgresSkipReason");

describe.skipIf(!!postgresSkip)("data that outlives the machine, on PostgreSQL", { timeout: SLOW_TEST_MS }, () => {
  let database: { url: string; drop: () => Promise<void> };
  const folders: string[] = [];
  let servers: TestServer[] = [];

  beforeAll(async () => {
    database = await createPostgresDatabase(null);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await database?.drop();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it("two instances started at the same moment on an empty database both come up, with one set of demo data", async () => {
    servers = await Promise.all([1, 2].map(() => startServer({ SEED_DEMO_DATA: "true" }, { databaseUrl: database.url })));
    for (const s of servers) expect((await client(s.url).get("/healthz")).status).toBe(200);
    const db = openDatabase({ databaseUrl: database.url });
    try {
      expect(await db.sql.query(`SELECT "email" FROM "users" WHERE "email" = 'admin@everlight.test'`)).toHaveLength(1);
    } finally {
      await db.close();
    }
    expect(servers.filter((s) => s.output().includes("Demo data loaded"))).toHaveLength(1);
  });

  it("two instances make the scheduled backup once; it restores into the embedded database; the purge runs from the command line", async () => {
    const backups = freshFolder("pg-backups");
    folders.push(backups);
    const env = { DATABASE_URL: database.url, DATA_DIR: freshFolder("pg-data"), BACKUP_DIR: backups, BACKUP_SCHEDULE: "daily" };
    folders.push(env.DATA_DIR);
    const rounds = await Promise.all([command("jobs", ["backup-round"], env), command("jobs", ["backup-round"], env)]);
    for (const round of rounds) expect(round.code, round.stderr).toBe(0);
    expect(rounds.map((r) => lastLine(r.stdout)).sort()).toEqual(['Done: {"round":"made"}', 'Done: {"round":"not due"}']);
    const made = readdirSync(backups).filter((name) => name.endsWith(".tar"));
    expect(made).toHaveLength(1);
    expect(made[0]).toMatch(/-scheduled\.tar$/);
    expect(lastLine((await command("jobs", ["backup-round"], env)).stdout)).toBe('Done: {"round":"not due"}');

    const embedded = freshFolder("from-pg");
    folders.push(embedded);
    const restored = await command("restore", [path.join(backups, made[0])], { DATA_DIR: embedded });
    expect(restored.code, restored.stderr + restored.stdout).toBe(0);
    const source = openDatabase({ databaseUrl: database.url });
    const copy = openDatabase({ pgliteDir: pgliteDirectory(embedded) });
    try {
      for (const table of ["users", "memorial_records", "tributes", "products", "news_articles", "friendships"]) {
        expect(await rowsOf(copy, table), table).toEqual(await rowsOf(source, table));
      }
      await source.sql.query(
        `UPDATE "memorial_records" SET "deletedAt" = now() - interval '31 days' WHERE "title" = (SELECT min("title") FROM "memorial_records")`,
      );
      const purge = await command("jobs", ["purge"], env);
      expect(purge.code, purge.stderr).toBe(0);
      expect(lastLine(purge.stdout)).toMatch(/"memorials":1/);
      expect(await source.sql.query(`SELECT 1 FROM "memorial_records" WHERE "deletedAt" IS NOT NULL`)).toEqual([]);
    } finally {
      await source.close();
      await copy.close();
    }
  });
});

type S3rverInstance = { run(): Promise<{ port: number }>; close(): Promise<void> };
// s3rver ships no types: loaded with require and described by the little we use.
const S3rver = createRequire(import.meta.url)("s3rver") as new (options: {
  port: number;
  address: string;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
}) => S3rverInstance;

describe("a site whose uploads and backups are in buckets", { timeout: SLOW_TEST_MS }, () => {
  const folders: string[] = [];
  let s3: S3rverInstance;
  let s3Env: Record<string, string>;
  let server: TestServer;

  beforeAll(async () => {
    const directory = freshFolder("s3");
    folders.push(directory);
    s3 = new S3rver({
      port: 0,
      address: "127.0.0.1",
      silent: true,
      directory,
      configureBuckets: [{ name: "uploads" }, { name: "moved" }, { name: "backups" }],
    });
    const { port } = await s3.run();
    s3Env = {
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
    };
    const dataDir = freshFolder("s3-site");
    folders.push(dataDir);
    server = await startServer({ ...s3Env, S3_BUCKET: "uploads", BACKUP_S3_BUCKET: "backups" }, { database: "pglite", dataDir });
  });
  afterAll(async () => {
    await server?.stop();
    await s3?.close();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it("backs up every file of the uploads bucket into the backups bucket, and restores from there into another bucket", async () => {
    const owner = (await registerMember(server.url)).api;
    const created = await owner.post("/api/memorials", { firstName: "Bucket", lastName: "Kept", isPublished: true, visibility: "public" });
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 10, g: 120, b: 60 } } })
      .png()
      .toBuffer();
    const photo = await owner.post(`/api/memorials/${created.json.id}/media`, {
      mediaData: dataUrl("image/png", png),
      fileName: "g.png",
      fileType: "image/png",
    });
    expect(photo.status, photo.text).toBe(201);
    const bytesAt = async (base: string) => {
      const response = await fetch(new URL(photo.json.mediaUrl, base));
      expect(response.status).toBe(200);
      return { type: response.headers.get("content-type"), bytes: Buffer.from(await response.arrayBuffer()) };
    };
    const source = await bytesAt(server.url);

    const backup = await command("jobs", ["backup"], { DATA_DIR: server.dataDir });
    expect(backup.code, backup.stderr).toBe(0);
    const address = lastLine(backup.stdout);
    expect(address).toMatch(/^s3:\/\/backups\/everlight-backups\/everlight-\d{8}T\d{9}Z-manual\.tar$/);
    expect(readdirSync(path.join(server.dataDir, "backups")).filter((name) => name.endsWith(".tar"))).toEqual([]);

    const elsewhere = freshFolder("s3-restored");
    folders.push(elsewhere);
    const restored = await command("restore", [address], { ...s3Env, DATA_DIR: elsewhere, S3_BUCKET: "moved" });
    expect(restored.code, restored.stderr + restored.stdout).toBe(0);
    const copy = await startServer({ ...s3Env, S3_BUCKET: "moved" }, { database: "pglite", dataDir: elsewhere });
    try {
      const served = await bytesAt(copy.url);
      expect(served.type).toBe(source.type);
      expect(served.bytes.equals(source.bytes)).toBe(true);
    } finally {
      await copy.stop();
    }
  });
});
