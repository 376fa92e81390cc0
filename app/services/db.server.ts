import { mkdirSync } from "node:fs";
import { cp } from "node:fs/promises";
import path from "node:path";
import { parse, PGlite, protocol, types, type Results } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { Prisma, PrismaClient } from "~/generated/prisma/client";
import { holdDataFolder, type DataFolderLock } from "./data-lock.server";
import { getEnv } from "./env.server";

/**
 * The low-level SQL connection the migrator and health check use, beside Prisma. Both kinds of
 * database (embedded PGlite, real PostgreSQL) look the same through it.
 */
export interface SqlDriver {
  readonly kind: "pglite" | "postgres";
  /** Runs one or more statements; no parameters, no result. */
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs fn in one transaction on one connection; rolled back if fn throws. */
  transaction<R>(fn: (tx: Omit<SqlDriver, "transaction" | "withLock" | "close">) => Promise<R>): Promise<R>;
  /**
   * Runs fn holding the advisory lock `key` across instances: on PostgreSQL taken and given back on one
   * connection held for the purpose (a session lock belongs to its connection, so neither may go through
   * the pool); the embedded database has one process, so fn simply runs.
   */
  withLock<R>(key: number, fn: () => Promise<R>): Promise<R>;
  /**
   * The embedded database on disk only: copies its folder to `target` while no statement runs, after a
   * checkpoint, so the copy opens as the database was at that moment (a backup's snapshot).
   */
  copyFiles?(target: string): Promise<void>;
  close(): Promise<void>;
}

export interface Database {
  prisma: PrismaClient;
  sql: SqlDriver;
  close(): Promise<void>;
}

export type DatabaseConfig = { databaseUrl: string } | { pgliteDir: string } | { pglite: PGlite };

/**
 * The embedded database never checkpoints by itself: it runs as one process, without PostgreSQL's
 * checkpointer. Once about 540 MB of WAL has been written since its last checkpoint, the checkpoint it then
 * asks for never ends: the process spins on one core and answers nothing more (PGlite 0.4, reproduced with
 * plain inserts, in one transaction or many; every commit before it stays safe on disk). So the WAL written
 * since the last checkpoint is looked at every WAL_CHECK_MS, and by long loads after each part, and past
 * EMBEDDED_WAL_BOUND_BYTES a checkpoint is made, which also keeps short what a start after a crash replays.
 * A checkpoint may run inside a transaction: a restore's single transaction is kept whole.
 */
export const EMBEDDED_WAL_BOUND_BYTES = 64 * 1024 * 1024;
const WAL_CHECK_MS = 15_000;

/** Makes a checkpoint when the embedded database has written more than `bound` bytes of WAL since its last; true when it did. */
export async function boundEmbeddedWal(sql: Pick<SqlDriver, "kind" | "query" | "exec">, bound = EMBEDDED_WAL_BOUND_BYTES): Promise<boolean> {
  if (sql.kind !== "pglite") return false;
  const [{ bytes }] = await sql.query<{ bytes: number }>(
    `SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), (pg_control_checkpoint()).redo_lsn)::float8 AS bytes`,
  );
  if (bytes < bound) return false;
  await sql.exec("CHECKPOINT");
  return true;
}

function pgliteDriver(db: PGlite, dir?: string): SqlDriver {
  const driver: SqlDriver = {
    kind: "pglite",
    exec: async (sql) => void (await db.exec(sql)),
    query: async <T>(sql: string, params: unknown[] = []) => (await db.query<T>(sql, params)).rows,
    transaction: (fn) =>
      db.transaction((tx) =>
        fn({
          kind: "pglite",
          exec: async (sql) => void (await tx.exec(sql)),
          query: async <T>(sql: string, params: unknown[] = []) => (await tx.query<T>(sql, params)).rows,
        }),
      ),
    withLock: (_key, fn) => fn(),
    // Both of PGlite's locks, as a statement takes them: no transaction is half done and none runs while the files are read.
    copyFiles: dir
      ? (target) =>
          db._runExclusiveTransaction(() =>
            db._runExclusiveQuery(async () => {
              await db.execProtocol(protocol.serialize.query("CHECKPOINT"));
              await cp(dir, target, { recursive: true });
            }),
          )
      : undefined,
    close: async () => {
      clearInterval(walCheck);
      await db.close();
    },
  };
  const walCheck = setInterval(() => {
    if (!db.closed)
      boundEmbeddedWal(driver).catch((error) => console.warn(`The embedded database's checkpoint failed: ${error instanceof Error ? error.message : error}`));
  }, WAL_CHECK_MS).unref();
  return driver;
}

/**
 * A date goes as its UTC time, as Prisma and the embedded database's path send it: `pg` would write it in the
 * process's own zone, which a column without one (Prisma's DateTime) would keep as if it were UTC.
 */
const inUtc = (params: unknown[]) => params.map((value) => (value instanceof Date ? value.toISOString() : value));

function postgresDriver(pool: pg.Pool): SqlDriver {
  return {
    kind: "postgres",
    exec: async (sql) => void (await pool.query(sql)),
    query: async <T>(sql: string, params: unknown[] = []) => (await pool.query(sql, inUtc(params))).rows as T[],
    transaction: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await fn({
          kind: "postgres",
          exec: async (sql) => void (await client.query(sql)),
          query: async <T>(sql: string, params: unknown[] = []) => (await client.query(sql, inUtc(params))).rows as T[],
        });
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    withLock: async (key, fn) => {
      const client = await pool.connect();
      try {
        await client.query("SELECT pg_advisory_lock($1)", [key]);
        try {
          return await fn();
        } finally {
          await client.query("SELECT pg_advisory_unlock($1)", [key]);
        }
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/**
 * The column types PGlite turns into JavaScript values: those Prisma's PGlite adapter reads (it refuses any
 * other type, so no Prisma query returns one; our own SQL, through `sql`, reads these too), and their arrays. PGlite registers a parser for each
 * of the ~300 array types of its catalogue and copies the whole table for every query it answers: keeping
 * these alone makes a simple query about 40 % cheaper. A type left out comes back as its text.
 */
const PARSED_TYPES = new Set<number>([
  ...[types.BOOL, types.BYTEA, types.CHAR, 19 /* name */, types.INT8, types.INT2, types.INT4, types.TEXT, types.OID, types.JSON, types.XML],
  ...[types.FLOAT4, types.FLOAT8, types.MONEY, types.INET, types.CIDR, types.BPCHAR, types.VARCHAR, types.DATE, types.TIME],
  ...[types.TIMESTAMP, types.TIMESTAMPTZ, types.TIMETZ, types.BIT, types.VARBIT, types.NUMERIC, types.UUID, types.JSONB],
  // Their arrays (the adapter's ArrayColumnType).
  ...[1000, 1001, 1002, 1005, 1007, 1009, 1014, 1015, 1016, 1021, 1022, 1028, 1041, 1115, 1182, 1183, 1185, 1231, 1561, 1563, 2951, 3807],
  ...[143, 199, 651, 791],
]);

/** Leaves PGlite the parsers of PARSED_TYPES only, once it has registered its catalogue's (when ready). */
function keepParsedTypes(db: PGlite) {
  const prune = () => {
    db.parsers = Object.fromEntries(Object.entries(db.parsers).filter(([oid]) => PARSED_TYPES.has(Number(oid))));
  };
  if (db.ready) prune();
  else void db.waitReady.then(prune, () => {});
}

/** A parameter sent as its text: what PGlite's own serializer would send for it, whatever its column's type. */
type TextParam = string | number | bigint | boolean | Date | null | undefined;
const isTextParam = (value: unknown): value is TextParam =>
  value == null || typeof value === "string" || typeof value === "number" || typeof value === "bigint" || typeof value === "boolean" || value instanceof Date;
/** PGlite's serializers' text: booleans t/f, dates ISO 8601 in UTC, numbers as JavaScript writes them. */
const asText = (value: TextParam) =>
  value == null ? null : typeof value === "boolean" ? (value ? "t" : "f") : value instanceof Date ? value.toISOString() : String(value);

/**
 * Errors after which a kept statement is prepared again and run once more: a table changed under it ("cached
 * plan must not change result type"), or it is gone (DEALLOCATE ALL or DISCARD ALL, which we never send).
 */
const PREPARE_AGAIN = new Set(["0A000", "26000"]);

/**
 * Statements matching a pattern, whose best plan depends on the pattern: never kept (see answerInOneCall). LIKE,
 * ILIKE, SIMILAR TO, regular expressions (`~`), trigram operators and functions (`%`, `similarity`); a `%` or
 * `~` elsewhere (a modulo, a literal) only costs that statement its keeping.
 */
const MATCHES_A_PATTERN = /\b(?:I?LIKE|SIMILAR\s+TO)\b|similarity|~|%/i;

/** How many statements the embedded database keeps prepared (least recently used go first). */
export const PREPARED_MAX = 256;

/**
 * PGlite's `query` asks the database for the parameters' types before it sends them (six calls into the
 * WebAssembly PostgreSQL for one statement), and PostgreSQL parses and plans the statement every time. A
 * query whose parameters are all text, numbers, booleans, dates or null (every Prisma query, and our own)
 * goes in one call instead, as a PostgreSQL client over the network sends it (Bind, Describe, Execute,
 * Sync), each value as the text PGlite's serializers make of it, to a statement prepared by name the first
 * time its text is seen (Parse): PostgreSQL then parses it once and may keep its plan, as it does for any
 * client that prepares statements (Prisma's own engine did). PostgreSQL infers the parameter types as
 * before; errors, locking and results are PGlite's own. Others (bytes, arrays, objects) take PGlite's path.
 * A simple statement about half as costly.
 *
 * A statement that matches a pattern (LIKE, ILIKE, a regular expression, a trigram similarity) is not kept: it
 * goes as an unnamed statement, planned for its own values each time, as PGlite's own path plans every statement.
 * After five runs of a kept statement PostgreSQL may keep one generic plan, chosen by estimates made without the
 * values; how much a pattern matches is the one thing such an estimate cannot know. For a search of the gallery
 * (`LIKE $1`, ordered by date) the generic plan walks every memorial when the words match none: 92 ms instead of
 * 1 ms at 100,000 memorials (decision 034). Planning every statement for its values instead (`plan_cache_mode =
 * force_custom_plan`) cost a tribute post 30 % more.
 */
function answerInOneCall(db: PGlite) {
  const asked = db.query.bind(db);
  const { serialize } = protocol;
  /** Statement text → its prepared name, least recently used first. */
  const prepared = new Map<string, string>();
  /** Names to close with the next call: forgotten ones, and any a failed call may have prepared. */
  let toClose: string[] = [];
  let named = 0;

  async function run(sql: string, values: (string | null)[], options: Parameters<PGlite["query"]>[2], again: boolean): Promise<Results> {
    if (MATCHES_A_PATTERN.test(sql)) return runUnnamed(sql, values, options);
    let name = prepared.get(sql);
    const fresh = !name;
    if (name)
      prepared.delete(sql); // most recently used last
    else name = `everlight_${++named}`;
    try {
      const { messages } = await oneCall(fresh ? serialize.parse({ text: sql, name }) : null, name, values);
      prepared.set(sql, name);
      if (prepared.size > PREPARED_MAX) {
        const [oldest, oldName] = prepared.entries().next().value!;
        prepared.delete(oldest);
        toClose.push(oldName);
      }
      return parse.parseResults(messages, db.parsers, options)[0];
    } catch (error) {
      if (fresh) {
        toClose.push(name); // prepared or not, by a call that failed: not kept
      } else if (PREPARE_AGAIN.has((error as { code?: string }).code ?? "") && !again) {
        toClose.push(name);
        return run(sql, values, options, true);
      } else {
        prepared.set(sql, name); // the statement is fine; this call's values were not
      }
      throw error;
    }
  }

  /** One call, as an unnamed statement: parsed and planned for these values, then forgotten. */
  async function runUnnamed(sql: string, values: (string | null)[], options: Parameters<PGlite["query"]>[2]): Promise<Results> {
    const { messages } = await oneCall(serialize.parse({ text: sql }), "", values);
    return parse.parseResults(messages, db.parsers, options)[0];
  }

  /** One message to the database: the pending closes, `parsed` (a Parse, if any), then Bind of `statement`, Describe, Execute, Sync. */
  function oneCall(parsed: Uint8Array | null, statement: string, values: (string | null)[]) {
    const parts = toClose.map((old) => serialize.close({ type: "S", name: old }));
    toClose = [];
    if (parsed) parts.push(parsed);
    parts.push(serialize.bind({ statement, values }), serialize.describe({ type: "P" }), serialize.execute({}), serialize.sync());
    const message = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
    parts.reduce((at, part) => (message.set(part, at), at + part.length), 0);
    return db.execProtocol(message);
  }

  db.query = (async (sql: string, params: unknown[] = [], options?: Parameters<PGlite["query"]>[2]) => {
    if (options?.paramTypes || options?.blob || !params.every(isTextParam)) return asked(sql, params, options);
    const values = params.map(asText);
    await db._checkReady();
    return db._runExclusiveTransaction(() => db._runExclusiveQuery(() => run(sql, values, options, false)));
  }) as PGlite["query"];
}

/** The PostgreSQL extensions the migrations use, bundled with PGlite. */
export const PGLITE_EXTENSIONS = { pg_trgm };

/** Opens a database. Tests call this directly; the app uses the per-process `getDatabase()`. */
export function openDatabase(config: DatabaseConfig): Database {
  if ("databaseUrl" in config) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 4 });
    // An idle connection the server closes (a restart, a failover, a dropped test database) is replaced
    // on next use; without a listener its 'error' event would end the process.
    pool.on("error", (error) => console.warn(`PostgreSQL closed an idle connection: ${error.message}`));
    const sql = postgresDriver(pool);
    const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: config.databaseUrl }) });
    return { prisma, sql, close: async () => (await prisma.$disconnect(), await sql.close()) };
  }
  let pglite: PGlite;
  if ("pglite" in config) pglite = config.pglite;
  else {
    mkdirSync(config.pgliteDir, { recursive: true, mode: 0o700 });
    pglite = new PGlite(config.pgliteDir, { extensions: PGLITE_EXTENSIONS });
  }
  keepParsedTypes(pglite);
  answerInOneCall(pglite);
  const sql = pgliteDriver(pglite, "pgliteDir" in config ? config.pgliteDir : undefined);
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  return { prisma, sql, close: async () => (await prisma.$disconnect(), await sql.close()) };
}

/** Where the embedded database lives: DATA_DIR/db. */
export function pgliteDirectory(dataDir: string) {
  return path.join(dataDir, "db");
}

// One database per process. Kept on globalThis so that Vite's dev reloads and a second copy of
// this module (the server entry and the route bundle) never open a second PGlite on the same files.
const DB_KEY = Symbol.for("everlight.database");
const LOCK_KEY = Symbol.for("everlight.dataFolderLock");
type GlobalWithDb = typeof globalThis & { [DB_KEY]?: Database; [LOCK_KEY]?: DataFolderLock };

/**
 * The process's database. The embedded one is opened only after this process took DATA_DIR's lock
 * (data-lock.server.ts): a second process on the same folder gets DataFolderInUseError instead.
 */
export function getDatabase(): Database {
  const g = globalThis as GlobalWithDb;
  if (!g[DB_KEY]) {
    const env = getEnv();
    if (env.DATABASE_URL) g[DB_KEY] = openDatabase({ databaseUrl: env.DATABASE_URL });
    else {
      mkdirSync(env.dataDir, { recursive: true, mode: 0o700 });
      const lock = holdDataFolder(env.dataDir);
      try {
        g[DB_KEY] = openDatabase({ pgliteDir: pgliteDirectory(env.dataDir) });
      } catch (error) {
        lock.release();
        throw error;
      }
      g[LOCK_KEY] = lock;
    }
  }
  return g[DB_KEY];
}

/**
 * Closes the embedded database, lets `between` change its folder (a restore sets the old one aside), and
 * opens it again: DATA_DIR's lock stays this process's throughout.
 */
export async function reopenEmbeddedDatabase(between: (dir: string) => Promise<void>): Promise<Database> {
  const g = globalThis as GlobalWithDb;
  const env = getEnv();
  if (env.DATABASE_URL || !g[LOCK_KEY]) throw new Error("Only an embedded database this process holds can be reopened.");
  await g[DB_KEY]?.close();
  g[DB_KEY] = undefined;
  const dir = pgliteDirectory(env.dataDir);
  await between(dir);
  g[DB_KEY] = openDatabase({ pgliteDir: dir });
  return g[DB_KEY];
}

/** The embedded database's lock, when this process holds it (a running server announces where it takes jobs). */
export function dataFolderLock(): DataFolderLock | undefined {
  return (globalThis as GlobalWithDb)[LOCK_KEY];
}

/** Lets tests point the whole app (models, routes) at a database they opened. */
export function setDatabase(db: Database | undefined) {
  (globalThis as GlobalWithDb)[DB_KEY] = db;
}

export async function closeDatabase() {
  const g = globalThis as GlobalWithDb;
  const db = g[DB_KEY];
  const lock = g[LOCK_KEY];
  g[DB_KEY] = undefined;
  g[LOCK_KEY] = undefined;
  try {
    await db?.close();
  } finally {
    lock?.release();
  }
}

/**
 * Whether a write failed because its row (or the row it points at) was deleted meanwhile by someone
 * else: Prisma's "record not found" (P2025) and foreign-key (P2003) errors. The caller answers "not found".
 */
export function isGoneMeanwhile(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && (error.code === "P2025" || error.code === "P2003");
}

/** The write's result, or null when its row was deleted meanwhile (isGoneMeanwhile). */
export async function unlessGone<T>(write: Promise<T>): Promise<T | null> {
  try {
    return await write;
  } catch (error) {
    if (isGoneMeanwhile(error)) return null;
    throw error;
  }
}

/** The Prisma client for models: `prisma().memorial.findMany(…)`. */
export function prisma(): PrismaClient {
  return getDatabase().prisma;
}
