import { createWriteStream, openAsBlob } from "node:fs";
import { mkdir, mkdtemp, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { boundEmbeddedWal, getDatabase, reopenEmbeddedDatabase, type SqlDriver } from "~/services/db.server";
import { driverExecute, sqlCommand } from "~/services/sql-statements.server";
import { Prisma } from "~/generated/prisma/client";
import { downloadArchive } from "~/services/backup-store.server";
import { dumpStatements } from "~/services/database-dump.server";
import { getEnv } from "~/services/env.server";
import { migrate, readMigrations } from "~/services/migrate.server";
import { isValidKey, putObject } from "~/services/storage.server";
import { keyFilePath } from "~/services/vault-crypto.server";
import { DATABASE_ENTRY, readArchive, VAULT_KEY_ENTRY, type Manifest } from "./archive.server";

// Restores an archive (archive.server.ts) into the database and file storage this process is configured
// for: the embedded database in DATA_DIR or PostgreSQL at DATABASE_URL, files on disk or in the bucket.
// The archive is read whole and every checksum checked before anything is written. The database gets the
// migrations the archive names, then its rows (in one transaction: all or nothing), then the migrations
// this version added since. Restoring an embedded site's archive with DATABASE_URL set is how a site
// moves to PostgreSQL, and the other way round.

export class RestoreRefused extends Error {
  name = "RestoreRefused";
}

export type RestoreOptions = { force?: boolean; log?: (line: string) => void };
export type RestoreReport = { manifest: Manifest; rows: number; files: number; target: string; setAside?: string };

/** The tables of the public schema (not views), by name. */
async function userTables(sql: Pick<SqlDriver, "query">) {
  const rows = await sql.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND c.relname <> '_prisma_migrations' ORDER BY 1`,
  );
  return rows.map((r) => r.name);
}

/** The restored database's backup runs left running: the archive's own succeeded, any other never will. */
const settleRunningBackups = sqlCommand({
  name: "backups.settleRunning",
  sql: (archived: Date) =>
    Prisma.sql`UPDATE "backup_runs" SET "status" = CASE WHEN "startedAt" = ${archived} THEN 'succeeded' ELSE 'failed' END,
         "verified" = ("startedAt" = ${archived}), "finishedAt" = COALESCE("finishedAt", ${archived}),
         "error" = CASE WHEN "startedAt" = ${archived} THEN NULL ELSE 'Interrupted: the site was restored from a backup made meanwhile.' END
       WHERE "status" = 'running'`,
  examples: [[new Date(0)]],
});

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Whether the target already holds a site: any member, memorial or product, or any row at all in those tables. */
async function holdsData(sql: SqlDriver): Promise<boolean> {
  const tables = new Set(await userTables(sql));
  for (const table of ["users", "memorial_records", "products", "orders"]) {
    if (tables.has(table) && (await sql.query(`SELECT 1 FROM ${quoted(table)} LIMIT 1`)).length) return true;
  }
  return false;
}

/** Loads the dumped rows into migrated, emptied tables, in one transaction; returns how many rows went in. */
async function loadRows(sql: SqlDriver, dumpFile: string, log: (line: string) => void): Promise<number> {
  const started = Date.now();
  const elapsed = () => `${Math.round((Date.now() - started) / 1000)} s`;
  const total = (await stat(dumpFile)).size;
  const megabytes = (bytes: number) => `${Math.round(bytes / 1e6).toLocaleString("en-GB")} MB`;
  return sql.transaction(async (tx) => {
    const tables = await userTables(tx);
    // The migrations' own triggers (versions moved on every write, an audit log no one may rewrite) are
    // for the app's writes, not for putting back rows as they were; the foreign keys are checked once, at the end.
    const keys = await tx.query<{ table: string; name: string; definition: string }>(
      `SELECT cl.relname AS "table", co.conname AS name, pg_get_constraintdef(co.oid) AS definition
       FROM pg_constraint co JOIN pg_class cl ON cl.oid = co.conrelid JOIN pg_namespace n ON n.oid = cl.relnamespace
       WHERE co.contype = 'f' AND n.nspname = 'public'`,
    );
    for (const table of tables) await tx.exec(`ALTER TABLE ${quoted(table)} DISABLE TRIGGER USER`);
    for (const key of keys) await tx.exec(`ALTER TABLE ${quoted(key.table)} DROP CONSTRAINT ${quoted(key.name)}`);
    // What the migrations wrote themselves (the page versions' rows) is replaced by what the archive holds.
    if (tables.length) await tx.exec(`TRUNCATE ${tables.map(quoted).join(", ")}`);
    let statements = 0;
    let loaded = 0;
    let reported = 0;
    let batch = "";
    for await (const statement of dumpStatements(dumpFile)) {
      batch += `${statement}\n`;
      statements++;
      if (batch.length < 1 << 20) continue;
      await tx.exec(batch);
      loaded += batch.length;
      batch = "";
      // The embedded database stops for good past about 540 MB of WAL without a checkpoint (db.server.ts).
      await boundEmbeddedWal(tx);
      // A large site takes minutes: the operator sees it move, a tenth at a time.
      if (loaded - reported > total / 10) {
        reported = loaded;
        log(`${megabytes(loaded)} of ${megabytes(total)} loaded (${elapsed()})…`);
      }
    }
    if (batch) await tx.exec(batch);
    log(`All ${megabytes(total)} loaded (${elapsed()}); checking the links between tables…`);
    // Statistics before the keys are checked: without them the planner takes the loaded tables for empty and
    // checks a million tributes against their memorials one pair at a time.
    await tx.exec("ANALYZE");
    for (const key of keys) await tx.exec(`ALTER TABLE ${quoted(key.table)} ADD CONSTRAINT ${quoted(key.name)} ${key.definition}`);
    for (const table of tables) await tx.exec(`ALTER TABLE ${quoted(table)} ENABLE TRIGGER USER`);
    log(`Checked (${elapsed()}).`);
    return statements;
  });
}

/** Restores the archive at `address` (a file, or `s3://bucket/key`) here; see the module's comment. Refuses a damaged archive, and a target that holds data unless `force`. */
export async function restoreBackup(address: string, options: RestoreOptions = {}): Promise<RestoreReport> {
  if (!address.startsWith("s3://")) return restoreFile(address, options);
  // An archive in a bucket is fetched whole first: it is read twice, once to check it and once to restore it.
  const env = getEnv();
  await mkdir(env.dataDir, { recursive: true, mode: 0o700 });
  const work = await mkdtemp(path.join(env.dataDir, ".download-"));
  try {
    const file = path.join(work, path.basename(address));
    options.log?.(`Fetching ${address}…`);
    await downloadArchive(address, file, env);
    return await restoreFile(file, options);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function restoreFile(archive: string, { force = false, log = () => {} }: RestoreOptions): Promise<RestoreReport> {
  const env = getEnv();
  log(`Checking ${archive}…`);
  const manifest = await readArchive(archive);
  const codeMigrations = readMigrations();
  const known = new Set(codeMigrations.map((m) => m.name));
  const newer = manifest.migrations.filter((name) => !known.has(name));
  if (newer.length)
    throw new RestoreRefused(
      `This archive was made by a newer version of Everlight (its database has ${newer.join(", ")}): restore it with that version or a later one.`,
    );
  log(`The archive is whole: ${manifest.entries.length} ${manifest.entries.length === 1 ? "entry" : "entries"}, every checksum matches.`);

  const target = env.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : `the embedded database in ${env.dataDir}`;
  let setAside: string | undefined;
  let db = getDatabase(); // the embedded one takes DATA_DIR's lock here: no server may be using it
  if (await holdsData(db.sql)) {
    if (!force) throw new RestoreRefused(`${target} already holds a site. Restore into an empty one, or add --force to replace it.`);
    if (db.sql.kind === "pglite") {
      // Nothing is lost: the database replaced is set aside beside it, whole.
      db = await reopenEmbeddedDatabase(async (dir) => {
        setAside = `${dir}.before-restore-${new Date().toISOString().replace(/[-:.]/g, "")}`;
        await rename(dir, setAside);
      });
      log(`The database that was there is kept in ${setAside}.`);
    } else {
      log("Replacing what the PostgreSQL database held (--force).");
      await db.sql.exec(`DROP SCHEMA public CASCADE; CREATE SCHEMA public;`);
    }
  }

  await mkdir(env.dataDir, { recursive: true, mode: 0o700 });
  const work = await mkdtemp(path.join(env.dataDir, ".restore-"));
  try {
    const dumpFile = path.join(work, "database.sql");
    let files = 0;
    // Looked up once per file: an archive may hold a hundred thousand.
    const contentTypes = new Map(manifest.entries.map((e) => [e.path, e.contentType]));
    log("Writing the files…");
    await readArchive(archive, async (name, body) => {
      if (name === DATABASE_ENTRY) return pipeline(body, createGunzip(), createWriteStream(dumpFile, { mode: 0o600 }));
      if (name.startsWith("uploads/")) {
        const key = name.slice("uploads/".length);
        if (!isValidKey(key)) throw new RestoreRefused(`The archive names a file outside the uploads: ${name}`);
        const temp = path.join(work, "file");
        await pipeline(body, createWriteStream(temp, { mode: 0o600 }));
        const contentType = contentTypes.get(name) ?? "application/octet-stream";
        await putObject(key, await openAsBlob(temp), contentType);
        await rm(temp, { force: true });
        files++;
        return;
      }
      if (name.startsWith("outbox/")) {
        const mail = path.basename(name);
        if (!/^[\w.@-]+\.eml$/.test(mail)) return;
        await mkdir(path.join(env.dataDir, "outbox"), { recursive: true, mode: 0o700 });
        await pipeline(body, createWriteStream(path.join(env.dataDir, "outbox", mail), { mode: 0o600 }));
        files++;
        return;
      }
      if (name === VAULT_KEY_ENTRY) {
        const keyFile = keyFilePath(env);
        const exists = await stat(keyFile).then(
          () => true,
          () => false,
        );
        if (exists && !force) {
          log(`A vault key is already at ${keyFile}: kept (the archive's is not written; add --force to replace it).`);
          return;
        }
        const chunks: Buffer[] = [];
        for await (const chunk of body) chunks.push(chunk as Buffer);
        if (exists) await rename(keyFile, `${keyFile}.before-restore`);
        await writeFile(keyFile, Buffer.concat(chunks), { mode: 0o600 });
        log(`The vault key is written to ${keyFile}.`);
      }
    });

    log("Loading the database…");
    const archived = new Set(manifest.migrations);
    await migrate(
      db.sql,
      codeMigrations.filter((m) => archived.has(m.name)),
    );
    const statements = await loadRows(db.sql, dumpFile, log);
    const later = await migrate(db.sql, codeMigrations);
    if (later.applied.length) log(`Migrations since the backup applied: ${later.applied.length}.`);
    // The archive was read while its own backup was running: that one finished (here it is); any other then
    // running never will.
    await driverExecute(db.sql, settleRunningBackups(new Date(manifest.createdAt)));

    let rows = 0;
    for (const [table, expected] of Object.entries(manifest.tables)) {
      const [{ count }] = await db.sql.query<{ count: number | string }>(`SELECT count(*)::int AS count FROM ${quoted(table)}`);
      if (Number(count) !== expected) throw new Error(`After the restore ${table} has ${count} rows where the archive has ${expected}.`);
      rows += expected;
    }
    log(`Restored ${rows} rows in ${Object.keys(manifest.tables).length} tables (${statements} statements) and ${files} files into ${target}.`);
    return { manifest, rows, files, target, setAside };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
