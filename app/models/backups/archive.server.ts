import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { extract, pack, type Pack } from "tar-stream";
import { getDatabase } from "~/services/db.server";
import { driverRows, sqlQuery } from "~/services/sql-statements.server";
import { Prisma } from "~/generated/prisma/client";
import { dumpRows, dumpStatements, insertedRows } from "~/services/database-dump.server";
import { getEnv } from "~/services/env.server";
import { readMigrations } from "~/services/migrate.server";
import { listObjectKeys, openObjectStream, statObject } from "~/services/storage.server";
import { keyFilePath } from "~/services/vault-crypto.server";

// One backup archive: a tar file holding everything a site needs to come back, in this order —
//   database.sql.gz      the rows, as pg_dump writes them (app/services/database-dump.server.ts)
//   uploads/<key>        every stored file (photos, videos, the vault's sealed files…), from disk or the bucket
//   outbox/<file>.eml    mail written to the outbox folder (no SMTP server set)
//   vault-keys.json      only when asked for: see below
//   manifest.json        last: what the archive holds, with the size and SHA-256 of every entry
// The database is read first, as it was at one moment; files are listed after it, so every file a row of
// that moment names is there (files added since are there too, and harmless).
//
// The vault's master key is left out unless asked for: the vault's files are sealed with it, and an
// archive holding both opens them for anyone who gets a copy. Keep the key apart (as the vault's own
// advice says) and restore it beside the archive.

const appliedMigrations = sqlQuery({
  name: "backups.appliedMigrations",
  columns: { migration_name: "varchar" },
  sql: () => Prisma.sql`SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
});

export const MANIFEST = "manifest.json";
export const DATABASE_ENTRY = "database.sql.gz";
export const VAULT_KEY_ENTRY = "vault-keys.json";
export const FORMAT = "everlight-backup";
export const FORMAT_VERSION = 1;

export type ManifestEntry = { path: string; size: number; sha256: string; contentType?: string };

export type Manifest = {
  format: typeof FORMAT;
  version: number;
  createdAt: string;
  /** Where it was made: the kind of database and of file storage. */
  source: { database: "pglite" | "postgres"; storage: "disk" | "s3" };
  /** The migrations the database had: a restore applies these before the rows, and newer ones after. */
  migrations: string[];
  /** Rows per table, as dumped: a restore checks it has as many. */
  tables: Record<string, number>;
  entries: ManifestEntry[];
  /** Files a row named that were deleted between the database's moment and their turn to be read. */
  missing: string[];
  vaultKeyIncluded: boolean;
};

export class DamagedArchiveError extends Error {
  name = "DamagedArchiveError";
}

/** Passes bytes through, counting them and taking their SHA-256. */
function measuring() {
  const hash = createHash("sha256");
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  return { stream, result: () => ({ size, sha256: hash.digest("hex") }) };
}

/** Adds one entry of known size to the archive from a stream, and says what went in. */
async function addEntry(archive: Pack, name: string, size: number, source: Readable): Promise<{ size: number; sha256: string }> {
  const measure = measuring();
  let entry!: ReturnType<Pack["entry"]>;
  const written = new Promise<void>((resolve, reject) => {
    entry = archive.entry({ name, size, mode: 0o600, mtime: new Date(0) }, (error) => (error ? reject(error) : resolve()));
  });
  for await (const chunk of source.pipe(measure.stream) as AsyncIterable<Buffer>) {
    if (!entry.write(chunk)) await new Promise<void>((resolve) => entry.once("drain", () => resolve()));
  }
  entry.end(undefined);
  await written;
  const result = measure.result();
  if (result.size !== size) throw new Error(`${name} changed while it was read (${size} bytes expected, ${result.size} read).`);
  return result;
}

export type ArchiveOptions = { workDir: string; withVaultKey?: boolean; log?: (line: string) => void; now?: Date };

/** Makes an archive of the site at `file`, as this process is configured (DATA_DIR, DATABASE_URL, S3_*), and returns its manifest. */
export async function writeArchive(file: string, { workDir, withVaultKey = false, log = () => {}, now = new Date() }: ArchiveOptions): Promise<Manifest> {
  const env = getEnv();
  const db = getDatabase();
  const sqlFile = path.join(workDir, "database.sql");
  log("Reading the database…");
  const { pausedMs } = await dumpRows(db.sql, sqlFile, { databaseUrl: env.DATABASE_URL, workDir });
  if (pausedMs) log(`The database's files were copied in ${(pausedMs / 1000).toFixed(1)} s (writes waited meanwhile); reading the copy…`);
  const tables: Record<string, number> = {};
  for await (const statement of dumpStatements(sqlFile)) {
    const insert = insertedRows(statement);
    if (insert) tables[insert.table] = (tables[insert.table] ?? 0) + insert.rows;
  }
  const migrations = (await driverRows(db.sql, appliedMigrations())).map((row) => row.migration_name);
  const known = new Set(readMigrations().map((m) => m.name));
  const unknown = migrations.filter((name) => !known.has(name));
  if (unknown.length)
    throw new Error(`The database has migrations this version does not know (${unknown.join(", ")}): back it up with the version that applied them.`);

  const gzFile = `${sqlFile}.gz`;
  await pipeline(createReadStream(sqlFile), createGzip({ level: 6 }), createWriteStream(gzFile, { mode: 0o600 }));

  const archive = pack();
  const out = pipeline(archive as AsyncIterable<Buffer>, createWriteStream(file, { mode: 0o600 }));
  out.catch(() => {}); // awaited below; an early failure must not go unhandled meanwhile
  const entries: ManifestEntry[] = [];
  const missing: string[] = [];
  try {
    entries.push({ path: DATABASE_ENTRY, ...(await addEntry(archive, DATABASE_ENTRY, (await stat(gzFile)).size, createReadStream(gzFile))) });

    log("Adding the stored files…");
    for await (const key of listObjectKeys()) {
      const info = await statObject(key);
      const body = info && (await openObjectStream(key));
      if (!info || !body) {
        missing.push(key);
        continue;
      }
      const name = `uploads/${key}`;
      entries.push({ path: name, contentType: info.contentType, ...(await addEntry(archive, name, info.size, body)) });
    }

    const outbox = path.join(env.dataDir, "outbox");
    const mails = await readdir(outbox).catch(() => [] as string[]);
    for (const mail of mails.filter((name) => name.endsWith(".eml")).sort()) {
      const full = path.join(outbox, mail);
      const name = `outbox/${mail}`;
      entries.push({ path: name, ...(await addEntry(archive, name, (await stat(full)).size, createReadStream(full))) });
    }

    if (withVaultKey) {
      const keyFile = keyFilePath(env);
      const size = await stat(keyFile)
        .then((s) => s.size)
        .catch(() => null);
      if (size !== null) entries.push({ path: VAULT_KEY_ENTRY, ...(await addEntry(archive, VAULT_KEY_ENTRY, size, createReadStream(keyFile))) });
      else log("There is no vault key file yet: none is included.");
    }

    const manifest: Manifest = {
      format: FORMAT,
      version: FORMAT_VERSION,
      createdAt: now.toISOString(),
      source: { database: db.sql.kind, storage: env.S3_BUCKET ? "s3" : "disk" },
      migrations,
      tables,
      entries,
      missing,
      vaultKeyIncluded: entries.some((e) => e.path === VAULT_KEY_ENTRY),
    };
    const manifestBytes = Buffer.from(JSON.stringify(manifest, null, 2));
    await new Promise<void>((resolve, reject) =>
      archive.entry({ name: MANIFEST, size: manifestBytes.length, mode: 0o600, mtime: new Date(0) }, manifestBytes, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
    archive.finalize();
    await out;
    return manifest;
  } catch (error) {
    archive.destroy(error as Error);
    throw error;
  }
}

/**
 * Reads an archive from start to end, calling `onEntry` with each entry's name and bytes (which it must
 * consume, or not: what it leaves is read past). Each entry's size and SHA-256 are checked against the
 * manifest, which comes last: nothing `onEntry` did may be trusted until this returns it. A missing,
 * unreadable or mismatched manifest, an entry it does not list, or one it lists that is absent, is a
 * DamagedArchiveError.
 */
export async function readArchive(file: string, onEntry?: (name: string, body: Readable) => Promise<void>): Promise<Manifest> {
  const seen = new Map<string, { size: number; sha256: string }>();
  let manifest: Manifest | null = null;
  const reader = extract();
  const source = createReadStream(file);
  source.on("error", (error) => reader.destroy(error));
  source.pipe(reader);
  try {
    for await (const entry of reader) {
      const name = entry.header.name;
      if (name === MANIFEST) {
        const chunks: Buffer[] = [];
        for await (const chunk of entry as AsyncIterable<Buffer>) chunks.push(chunk);
        try {
          manifest = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Manifest;
        } catch {
          throw new DamagedArchiveError(`${path.basename(file)}: its manifest is not readable.`);
        }
        continue;
      }
      if (manifest) throw new DamagedArchiveError(`${path.basename(file)}: ${name} follows the manifest, which should be last.`);
      const measure = measuring();
      // An archive cut short ends an entry with an error: passed on to whoever reads it, and thrown below.
      let failed: Error | null = null;
      measure.stream.on("error", (error) => (failed ??= error));
      const body = Readable.from(entry);
      body.on("error", (error) => measure.stream.destroy(error));
      body.pipe(measure.stream);
      if (onEntry) await onEntry(name, measure.stream);
      measure.stream.resume();
      await new Promise<void>((resolve, reject) => {
        if (failed) return reject(failed);
        if (measure.stream.readableEnded) return resolve();
        measure.stream.once("end", resolve);
        measure.stream.once("error", reject);
      });
      seen.set(name, measure.result());
    }
  } catch (error) {
    if (error instanceof DamagedArchiveError) throw error;
    throw new DamagedArchiveError(`${path.basename(file)} is not a readable backup archive: ${error instanceof Error ? error.message : error}`);
  }
  if (!manifest || manifest.format !== FORMAT || !Array.isArray(manifest.entries)) {
    throw new DamagedArchiveError(`${path.basename(file)} has no manifest: it is not an Everlight backup, or it was cut short.`);
  }
  if (manifest.version > FORMAT_VERSION)
    throw new DamagedArchiveError(`${path.basename(file)} was made by a newer version of Everlight (format ${manifest.version}).`);
  const listed = new Set(manifest.entries.map((e) => e.path));
  for (const name of seen.keys()) if (!listed.has(name)) throw new DamagedArchiveError(`${path.basename(file)}: ${name} is not in its manifest.`);
  for (const expected of manifest.entries) {
    const found = seen.get(expected.path);
    if (!found) throw new DamagedArchiveError(`${path.basename(file)}: ${expected.path} is missing.`);
    if (found.size !== expected.size || found.sha256 !== expected.sha256) {
      throw new DamagedArchiveError(`${path.basename(file)}: ${expected.path} does not match its checksum: the archive is damaged.`);
    }
  }
  return manifest;
}
