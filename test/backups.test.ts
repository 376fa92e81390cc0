import { randomBytes } from "node:crypto";
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { readArchive, type Manifest } from "~/models/backups/archive.server";
import { openDatabase, pgliteDirectory, type Database } from "~/services/db.server";
import { hashPassword } from "~/services/password.server";
import { describeSize } from "~/utils/vault-rules";
import { command, dataUrl, freshFolder, lastLine, rowsOf, SLOW_TEST_MS } from "./backup-commands";
import { createPostgresDatabase } from "./databases";
import { client, registerMember, startServer, type Client, type TestServer } from "./http";

// Data that outlives the machine on the embedded database, with the commands an operator types: two servers
// on one data folder (the second refuses, the first loses nothing), a backup taken while eight clients write
// and restored into an empty folder and into PostgreSQL (equal, table by table and file by file, with every
// write acknowledged before it began), restores that refuse a damaged archive and a folder that holds a site,
// `npm run jobs -- purge` through the running server, a hard kill and a restart. PostgreSQL and buckets:
// test/backups-postgres-s3.test.ts.

const PDF = "%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\nThe family's papers.\n%%EOF\n";

const postgresSkip = inject("postgresSkipReason");

describe("data that outlives the machine, on the embedded database", { timeout: SLOW_TEST_MS }, () => {
  const dataDir = freshFolder("backup-source");
  const folders: string[] = [dataDir];
  const NAME = `Backupson${randomBytes(3).toString("hex")}`;
  const deletedLongAgo = `gone-${randomBytes(4).toString("hex")}`;
  const ADMIN_EMAIL = `keeper-${randomBytes(4).toString("hex")}@example.test`;
  let server: TestServer;
  let owner: Client;
  let memorialId: string;
  let vaultMember: { api: Client; email: string };
  let archive: string;
  let manifest: Manifest;
  let windowEnds = 0;
  /** The folder the backup was restored into. */
  let embedded: string;
  /** Every tribute a server answered 201 for. */
  const acknowledged: string[] = [];

  const leaveTribute = async (content: string) => {
    const left = await client(server.url).post(`/api/memorials/${memorialId}/tributes`, { authorName: "A friend", content });
    expect(left.status, left.text).toBe(201);
    acknowledged.push(left.json.id as string);
  };

  beforeAll(async () => {
    server = await startServer(
      {},
      {
        database: "pglite",
        dataDir,
        // A memorial whose 30 days end twenty seconds after this: past its window when `npm run jobs -- purge` runs,
        // but not yet when the server's own round runs at its start.
        prepare: async (db) => {
          windowEnds = Date.now() + 20_000;
          await db.sql.query(`INSERT INTO "users" ("id", "email", "firstName", "lastName", "password", "isAdmin") VALUES ($1, $2, 'Ada', 'Admin', $3, true)`, [
            `admin-${deletedLongAgo}`,
            ADMIN_EMAIL,
            await hashPassword("Correct1horse"),
          ]);
          await db.sql.query(`INSERT INTO "users" ("id", "email", "firstName", "lastName", "password") VALUES ($1, $2, 'Old', 'Owner', 'x')`, [
            deletedLongAgo,
            `${deletedLongAgo}@example.test`,
          ]);
          await db.sql.query(
            `INSERT INTO "memorial_records" ("id", "userId", "title", "firstName", "lastName", "deletedAt", "deletedById")
             VALUES ($1, $1, 'Long gone', 'Long', 'Gone', now() - interval '30 days' + interval '20 seconds', $1)`,
            [deletedLongAgo],
          );
        },
      },
    );
    owner = (await registerMember(server.url, { firstName: "Orla", lastName: "Keeper" })).api;
    const created = await owner.post("/api/memorials", { firstName: NAME, lastName: "Lake", biography: "A life.", isPublished: true, visibility: "public" });
    expect(created.status, created.text).toBe(201);
    memorialId = created.json.id;
    const png = await sharp({ create: { width: 80, height: 60, channels: 3, background: { r: 200, g: 150, b: 90 } } })
      .png()
      .toBuffer();
    const photo = await owner.post(`/api/memorials/${memorialId}/media`, { mediaData: dataUrl("image/png", png), fileName: "lake.png", fileType: "image/png" });
    expect(photo.status, photo.text).toBe(201);
    // A member on Forever Plus keeps a document in the vault, sealed with the vault's key.
    const member = await registerMember(server.url);
    const payment = await member.api.post("/api/create-subscription-payment", { planId: "forever_plus", paymentType: "full" });
    expect((await member.api.post("/api/test-payments/pay", { paymentIntentId: payment.json.paymentIntentId })).status).toBe(200);
    const sealed = await member.api.post("/api/vault/files", {
      fileName: "papers.pdf",
      fileType: "application/pdf",
      fileData: dataUrl("application/pdf", PDF),
    });
    expect(sealed.status, sealed.text).toBe(201);
    vaultMember = { api: member.api, email: (await member.api.get("/api/auth/user")).json.email };
  });

  afterAll(async () => {
    await server?.stop();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it("a second server on the same folder refuses to start, naming the first, which keeps every write", async () => {
    for (let i = 0; i < 15; i++) await leaveTribute(`Before the second start, ${i}.`);
    const second = startServer({}, { database: "pglite", dataDir });
    await expect(second).rejects.toThrow(new RegExp(`exited with 1[\\s\\S]*in use by another Everlight process \\(pid ${server.pid} `));
    await expect(second).rejects.toThrow(/Stop that process first/);
    for (let i = 0; i < 15; i++) await leaveTribute(`After the second start, ${i}.`);
    expect((await client(server.url).get("/healthz")).status).toBe(200);
    expect(acknowledged).toHaveLength(30);
  });

  it("a backup taken while 8 clients write holds every write acknowledged before it began, and restores into an empty folder and into PostgreSQL alike", async () => {
    let writing = true;
    const writers = Array.from({ length: 8 }, async (_, writer) => {
      for (let i = 0; writing; i++) await leaveTribute(`Writer ${writer}, memory ${i}.`);
    });
    while (acknowledged.length < 60) await new Promise((resolve) => setTimeout(resolve, 20));
    const before = [...acknowledged];
    const backup = await command("jobs", ["backup", "--with-vault-key"], { DATA_DIR: dataDir });
    const afterBackup = acknowledged.length;
    writing = false;
    await Promise.all(writers);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toContain(`The server (pid ${server.pid}) holds the database`);
    archive = lastLine(backup.stdout);
    expect(archive).toMatch(new RegExp(`^${dataDir}/backups/everlight-\\d{8}T\\d{9}Z-manual\\.tar$`));
    // The writers went on while it ran: the site took writes all along.
    expect(afterBackup).toBeGreaterThan(before.length);
    manifest = await readArchive(archive);
    expect(manifest.vaultKeyIncluded).toBe(true);
    // The administrators' dashboard says so, on every tab.
    const admin = client(server.url);
    expect((await admin.post("/api/auth/login", { email: ADMIN_EMAIL, password: "Correct1horse" })).status).toBe(200);
    const dashboard = (await admin.get("/admin/users")).text.replace(/<!-- -->/g, "");
    expect(dashboard).toMatch(new RegExp(`Last backup [A-Z][a-z]+ \\d+, \\d{4} at \\d\\d:\\d\\d UTC, ${describeSize(statSync(archive).size)}, verified\\.`));
    expect(dashboard).toContain("Automatic backups are off (BACKUP_SCHEDULE).");
    expect(manifest.entries.filter((e) => e.path.startsWith("uploads/")).length).toBeGreaterThanOrEqual(3); // the photo's sizes and the sealed file

    embedded = freshFolder("restored");
    folders.push(embedded);
    const restored = await command("restore", [archive], { DATA_DIR: embedded });
    expect(restored.code, restored.stderr + restored.stdout).toBe(0);
    expect(restored.stdout).toMatch(/every checksum matches/);
    const intoEmbedded = openDatabase({ pgliteDir: pgliteDirectory(embedded) });
    let intoPostgres: Database | null = null;
    let dropPostgres = async () => {};
    try {
      const tributes = new Set((await intoEmbedded.sql.query<{ id: string }>(`SELECT "id" FROM "tributes"`)).map((t) => t.id));
      expect(before.filter((id) => !tributes.has(id))).toEqual([]);
      for (const [table, rows] of Object.entries(manifest.tables)) expect((await rowsOf(intoEmbedded, table)).length, table).toBe(rows);
      expect(Object.keys(manifest.tables)).toEqual(expect.arrayContaining(["users", "memorial_records", "tributes", "memorial_media", "vault_files"]));

      // Every file's bytes as they were.
      for (const entry of manifest.entries.filter((e) => e.path.startsWith("uploads/"))) {
        const key = entry.path.slice("uploads/".length);
        expect(readFileSync(path.join(embedded, "uploads", key)).equals(readFileSync(path.join(dataDir, "uploads", key))), key).toBe(true);
      }

      if (!postgresSkip) {
        const target = await createPostgresDatabase(null);
        dropPostgres = target.drop;
        const moved = await command("restore", [archive], { DATA_DIR: freshFolder("pg-side"), DATABASE_URL: target.url });
        expect(moved.code, moved.stderr + moved.stdout).toBe(0);
        intoPostgres = openDatabase({ databaseUrl: target.url });
        for (const table of Object.keys(manifest.tables)) expect(await rowsOf(intoPostgres, table), table).toEqual(await rowsOf(intoEmbedded, table));
      }
    } finally {
      await intoEmbedded.close();
      await intoPostgres?.close();
      await dropPostgres();
    }

    // The restored site serves, and the vault's file opens with the key the archive carried.
    const copy = await startServer({}, { database: "pglite", dataDir: embedded });
    try {
      const member = client(copy.url);
      expect((await member.post("/api/auth/login", { email: vaultMember.email, password: "Correct1horse" })).status).toBe(200);
      const files = await member.get("/api/vault/files");
      expect(files.status, files.text).toBe(200);
      const download = await member.get(`/api/vault/files/${files.json[0].id}/download`);
      expect(download.status).toBe(200);
      expect(download.text).toBe(PDF);
      expect((await client(copy.url).get(`/memorials/${memorialId}`)).text).toContain(NAME);
    } finally {
      await copy.stop();
    }
  });

  it("a restore refuses a folder that holds a site, and a damaged or cut archive, before it writes anything", async () => {
    const again = await command("restore", [archive], { DATA_DIR: embedded });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already holds a site. Restore into an empty one, or add --force to replace it.");

    // One byte changed in the middle of the archive's first entry, the database (its data follows a 512-byte header).
    const damaged = path.join(freshFolder("damaged"), "damaged.tar");
    folders.push(path.dirname(damaged));
    const bytes = readFileSync(archive);
    bytes[512 + Math.floor(manifest.entries[0].size / 2)] ^= 0xff;
    writeFileSync(damaged, bytes);
    const target = freshFolder("untouched");
    folders.push(target);
    const refused = await command("restore", [damaged], { DATA_DIR: target });
    expect(refused.code).toBe(1);
    expect(manifest.entries[0].path).toBe("database.sql.gz");
    expect(refused.stderr).toContain("damaged.tar: database.sql.gz does not match its checksum: the archive is damaged.");
    expect(readdirSync(target)).toEqual([]);

    const cut = path.join(path.dirname(damaged), "cut.tar");
    cpSync(archive, cut);
    truncateSync(cut, Math.floor(statSync(cut).size / 2));
    const refusedCut = await command("restore", [cut], { DATA_DIR: target });
    expect(refusedCut.code).toBe(1);
    expect(refusedCut.stderr).toMatch(/no manifest|not a readable backup archive/);
    expect(readdirSync(target)).toEqual([]);
  });

  it("npm run jobs -- purge runs in the server that holds the folder, and purges what is past its window", async () => {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, windowEnds + 1000 - Date.now())));
    const purge = await command("jobs", ["purge"], { DATA_DIR: dataDir });
    expect(purge.code, purge.stderr).toBe(0);
    expect(lastLine(purge.stdout)).toMatch(/^Done: .*"memorials":1/);
    const unknown = await command("jobs", ["purgatory"], { DATA_DIR: dataDir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("There is no job called purgatory.");
  });

  it("after a hard kill and a restart, every acknowledged write is there and the purge held", async () => {
    server.kill("SIGKILL");
    await server.exited;
    // The lock its process left is taken over: the folder's holder is gone.
    expect(existsSync(path.join(dataDir, "everlight.lock"))).toBe(true);
    const restarted = await startServer({}, { database: "pglite", dataDir });
    expect((await client(restarted.url).get(`/memorials/${memorialId}`)).status).toBe(200);
    await restarted.stop();
    expect(existsSync(path.join(dataDir, "everlight.lock"))).toBe(false);
    const db = openDatabase({ pgliteDir: pgliteDirectory(dataDir) });
    try {
      const ids = new Set((await db.sql.query<{ id: string }>(`SELECT "id" FROM "tributes" WHERE "memorialId" = $1`, [memorialId])).map((t) => t.id));
      expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
      expect(await db.sql.query(`SELECT 1 FROM "memorial_records" WHERE "id" = $1`, [deletedLongAgo])).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
