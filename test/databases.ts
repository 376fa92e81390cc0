import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { openDatabase, PGLITE_EXTENSIONS, setDatabase, type Database } from "~/services/db.server";

// Fresh, migrated databases for integration tests: `describe.each(databaseKinds)` runs a suite on
// embedded PGlite and on the throw-away PostgreSQL cluster (skipped, with the reason printed by the
// global setup, where the PostgreSQL binaries are missing).

export type DatabaseKind = { name: "pglite" | "postgres"; skip: string | null; open: () => Promise<Database> };

/** The embedded database itself, migrated (for what only PGlite offers, such as describing a statement). */
export async function openMigratedPglite(): Promise<PGlite> {
  const tarball = new Blob([readFileSync(inject("pgliteTemplate"))]);
  const pglite = new PGlite({ loadDataDir: tarball, extensions: PGLITE_EXTENSIONS });
  await pglite.waitReady;
  return pglite;
}

export async function openPglite(): Promise<Database> {
  return openDatabase({ pglite: await openMigratedPglite() });
}

/** An empty database with no migrations applied (for migration tests). */
export async function openEmptyPglite(): Promise<Database> {
  return openDatabase({ pglite: new PGlite({ extensions: PGLITE_EXTENSIONS }) });
}

/** A new database on the throw-away cluster, cloned from `template` when given. */
export async function createPostgresDatabase(template: string | null): Promise<{ url: string; drop: () => Promise<void> }> {
  const url = inject("postgresUrl");
  if (!url) throw new Error("PostgreSQL is not available");
  const name = `t_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  await admin.end();
  return {
    url: url.replace(/\/postgres$/, `/${name}`),
    drop: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

async function openPostgres(template: string | null): Promise<Database> {
  const { url, drop } = await createPostgresDatabase(template);
  const db = openDatabase({ databaseUrl: url });
  return { ...db, close: async () => (await db.close(), await drop()) };
}

export const databaseKinds: DatabaseKind[] = [
  { name: "pglite", skip: null, open: openPglite },
  { name: "postgres", skip: inject("postgresSkipReason"), open: () => openPostgres("everlight_template") },
];

export const emptyDatabaseKinds: DatabaseKind[] = [
  { name: "pglite", skip: null, open: openEmptyPglite },
  { name: "postgres", skip: inject("postgresSkipReason"), open: () => openPostgres(null) },
];

/**
 * Opens a fresh database of this kind for the enclosing describe block and points the app's models
 * at it (setDatabase), closing it afterwards. Read `.db` inside tests.
 */
export function useAppDatabase(kind: DatabaseKind): { readonly db: Database } {
  const holder = { db: undefined as unknown as Database };
  beforeAll(async () => {
    if (kind.skip) return;
    holder.db = await kind.open();
    setDatabase(holder.db);
  });
  afterAll(async () => {
    setDatabase(undefined);
    await holder.db?.close();
  });
  return holder;
}
