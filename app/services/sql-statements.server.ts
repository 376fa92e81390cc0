import { Prisma } from "~/generated/prisma/client";
import type { SqlDriver } from "./db.server";

// The raw SQL the models run, through Prisma ($queryRaw, $executeRaw) or past it on the `sql` driver, each
// statement declared once with the columns it returns. The row type the code reads is derived from those columns, and a test asks the
// migrated database to describe every declared statement (without running it): a table or column the
// schema lacks, or a column whose type is not the one declared, fails there with the statement's name.

/** What Prisma hands back for each PostgreSQL type a statement of ours returns. */
type ValueOfType = {
  text: string;
  varchar: string;
  bool: boolean;
  int2: number;
  int4: number;
  // Prisma reads int8 as a bigint (it may not fit a number).
  int8: bigint;
  float8: number;
  numeric: Prisma.Decimal;
  timestamp: Date;
  timestamptz: Date;
  date: Date;
  jsonb: Prisma.JsonValue;
};

/** A PostgreSQL type name as pg_type spells it; `… | null` where the column may be NULL. */
export type PgType = keyof ValueOfType;
export type ColumnType = PgType | `${PgType} | null`;
export type ResultColumns = Readonly<Record<string, ColumnType>>;

type ValueOfColumn<T extends ColumnType> = T extends `${infer Base extends PgType} | null`
  ? ValueOfType[Base] | null
  : T extends PgType
    ? ValueOfType[T]
    : never;

/** The row a statement with these columns returns, as Prisma hands it back. */
export type RowOf<C extends ResultColumns> = { -readonly [K in keyof C]: ValueOfColumn<C[K]> };

/** Splits a declared column type into its PostgreSQL type and whether it may be NULL. */
export function parseColumnType(type: ColumnType): { type: PgType; nullable: boolean } {
  const nullable = type.endsWith(" | null");
  return { type: (nullable ? type.slice(0, -" | null".length) : type) as PgType, nullable };
}

declare const rowType: unique symbol;
declare const columnsType: unique symbol;

/**
 * A declared query bound to its arguments, ready for queryRows (or driverRows); it carries the row type it
 * returns, and its declared columns, by which driverRows tells whether the driver reads them as typed.
 */
export type BoundQuery<Row, C extends ResultColumns = ResultColumns> = {
  readonly statement: string;
  readonly sql: Prisma.Sql;
  readonly command?: never;
  readonly [rowType]?: Row;
  readonly [columnsType]?: C;
};
/** A declared command bound to its arguments, ready for executeSql. */
export type BoundCommand = { readonly statement: string; readonly sql: Prisma.Sql; readonly command: true };

/**
 * What the check reads of a declared statement: its name, the columns a query returns (null for a
 * command, whose rows nobody reads), and the statement built from each of its example arguments.
 */
export type DeclaredStatement = { readonly name: string; readonly columns: ResultColumns | null; readonly examples: () => Prisma.Sql[] };

/**
 * Arguments to build the statement with for the check, one list per shape worth describing (an optional
 * clause on and off, a list for Prisma.join): required when the statement takes arguments. Their values are
 * never sent, only the statement's text is described.
 */
type Examples<A extends unknown[]> = A extends [] ? { examples?: [] } : { examples: [A, ...A[]] };

type QuerySpec<C extends ResultColumns, A extends unknown[]> = { name: string; columns: C; sql: (...args: A) => Prisma.Sql } & Examples<A>;
type CommandSpec<A extends unknown[]> = { name: string; sql: (...args: A) => Prisma.Sql } & Examples<A>;

// Keyed by name: a module evaluated again (the development server reloading it) replaces its own
// declarations. The test counts the declarations in the source against this, so two sharing a name show.
const registry = new Map<string, DeclaredStatement>();

/** Every statement declared by the modules loaded so far. */
export function declaredStatements(): DeclaredStatement[] {
  return [...registry.values()];
}

/** A statement's builder as the check calls it, with example arguments of any statement. */
type AnyBuilder = (...args: unknown[]) => Prisma.Sql;

function declaration(name: string, columns: ResultColumns | null, spec: { sql: unknown; examples?: unknown[][] }): DeclaredStatement {
  const build = spec.sql as AnyBuilder;
  const examples = spec.examples ?? [[]];
  return { name, columns, examples: () => examples.map((args) => build(...args)) };
}

/** A statement declared but not registered: the check's own tests use it to declare one wrong on purpose. */
export function unregisteredQuery<C extends ResultColumns, A extends unknown[]>(spec: QuerySpec<C, A>): DeclaredStatement {
  return declaration(spec.name, spec.columns, spec);
}

/**
 * Declares a query returning rows (a SELECT, or a write with RETURNING), at the top of a module so that
 * the check finds it. Run it with `queryRows(db, statement(...args))`.
 */
export function sqlQuery<C extends ResultColumns, A extends unknown[]>(spec: QuerySpec<C, A>): (...args: A) => BoundQuery<RowOf<C>, C> {
  registry.set(spec.name, declaration(spec.name, spec.columns, spec));
  return (...args) => ({ statement: spec.name, sql: spec.sql(...args) });
}

/**
 * Declares a statement whose rows nobody reads (a write without RETURNING, a lock), at the top of a module
 * so that the check finds it. Run it with `executeSql(db, statement(...args))`, which says how many rows it changed.
 */
export function sqlCommand<A extends unknown[]>(spec: CommandSpec<A>): (...args: A) => BoundCommand {
  registry.set(spec.name, declaration(spec.name, null, spec));
  return (...args) => ({ statement: spec.name, sql: spec.sql(...args), command: true });
}

/** Prisma's client, or a transaction's: both run raw statements. */
type RawRunner = Pick<Prisma.TransactionClient, "$queryRaw" | "$executeRaw">;

/** The rows of a declared query, typed by its declared columns. */
export function queryRows<Row>(db: RawRunner, query: BoundQuery<Row>): Prisma.PrismaPromise<Row[]> {
  return db.$queryRaw<Row[]>(query.sql);
}

/** Runs a declared command; resolves to the number of rows it changed. */
export function executeSql(db: RawRunner, command: BoundCommand): Prisma.PrismaPromise<number> {
  return db.$executeRaw(command.sql);
}

// The same statements past Prisma, on the `sql` driver (db.server.ts), where a hot path cannot afford Prisma's
// own cost. That driver is PGlite on the embedded database and node-postgres on PostgreSQL, and neither reads
// every type as Prisma does, nor as the other: an int8 is a number on PGlite and a string from node-postgres, a
// numeric is a string from both (Prisma's is a Decimal), a date is midnight UTC on PGlite and midnight in the
// process's own zone from node-postgres, and a timestamp without a zone is read in the process's zone (Prisma
// reads it as UTC). Rather than convert rows on every call, the driver path takes only the types both read as
// Prisma does, so the row type RowOf derives is true on either database: a time goes as a timestamptz
// (`"at" AT TIME ZONE 'UTC'`), a count as an int4 (`count(*)::int`), a bigint as its text.

/** The PostgreSQL types both drivers hand back as the same JavaScript value: Prisma's, in RowOf. */
export type DriverPgType = "text" | "varchar" | "bool" | "int2" | "int4" | "float8" | "timestamptz" | "jsonb";
export type DriverColumns = Readonly<Record<string, DriverPgType | `${DriverPgType} | null`>>;

/** The driver, or one of its transactions. */
type DriverRunner = Pick<SqlDriver, "query">;

/**
 * The rows of a declared query, run on the `sql` driver in one call, as the driver's own query: typed by
 * its declared columns, which must be of the types both drivers read alike (DriverPgType).
 */
export function driverRows<C extends DriverColumns>(db: DriverRunner, query: BoundQuery<RowOf<C>, C>): Promise<RowOf<C>[]> {
  return db.query<RowOf<C>>(query.sql.text, query.sql.values);
}

/** Runs a declared command on the `sql` driver, in one call. */
export async function driverExecute(db: DriverRunner, command: BoundCommand): Promise<void> {
  await db.query(command.sql.text, command.sql.values);
}
