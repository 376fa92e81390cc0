import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { DescribeQueryResult } from "@electric-sql/pglite";
import { parseColumnType, type DeclaredStatement } from "~/services/sql-statements.server";

// The check of the models' declared raw statements (app/services/sql-statements.server.ts) against the
// migrated schema: each is described by the database without being run, and its result columns compared
// with the declared ones.
//
// Only the embedded database (PGlite) describes here. node-postgres cannot ask PostgreSQL to describe a
// statement, and the other way, PREPARE and then pg_prepared_statements.result_types, exists only from
// PostgreSQL 16 (the cluster the tests start may be 15). Both run the same migrations, so the schema checked is theirs.

/** Describes a statement's text without running it. */
export type Describe = (sql: string) => Promise<DescribeQueryResult>;

/** What is wrong with a declared statement, one sentence per column or error, each starting with its name. */
export async function statementProblems(describe: Describe, typeNames: ReadonlyMap<number, string>, declared: DeclaredStatement): Promise<string[]> {
  const problems: string[] = [];
  const examples = declared.examples();
  for (const [index, sql] of examples.entries()) {
    const which = examples.length > 1 ? `${declared.name} (example ${index + 1})` : declared.name;
    let described: DescribeQueryResult;
    try {
      described = await describe(sql.text);
    } catch (error) {
      problems.push(`${which}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    if (declared.columns) problems.push(...columnProblems(which, declared.columns, described, typeNames));
  }
  return problems;
}

function columnProblems(
  which: string,
  columns: NonNullable<DeclaredStatement["columns"]>,
  described: DescribeQueryResult,
  typeNames: ReadonlyMap<number, string>,
) {
  const problems: string[] = [];
  const returned = new Map(described.resultFields.map((field) => [field.name, typeNames.get(field.dataTypeID) ?? `type ${field.dataTypeID}`]));
  for (const [name, declaredType] of Object.entries(columns)) {
    const actual = returned.get(name);
    const { type } = parseColumnType(declaredType);
    if (actual === undefined) problems.push(`${which}: column "${name}" is declared but the statement returns no such column`);
    else if (actual !== type) problems.push(`${which}: column "${name}" is declared ${type} but the statement returns ${actual}`);
  }
  for (const [name, actual] of returned) {
    if (!(name in columns)) problems.push(`${which}: the statement returns column "${name}" (${actual}), which is not declared`);
  }
  return problems;
}

/** The source files of app/, server/ and scripts/, the generated client and the tests aside. */
export function sourceFiles(dirs = ["app", "server", "scripts"]): { path: string; source: string }[] {
  const files: { path: string; source: string }[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) {
        if (name !== "generated" && !name.startsWith("+")) walk(full);
      } else if (/\.(ts|tsx|mjs|js)$/.test(name) && !/\.test\.tsx?$/.test(name)) {
        files.push({ path: full.replace(/\\/g, "/"), source: readFileSync(full, "utf8") });
      }
    }
  };
  for (const dir of dirs) walk(dir);
  return files;
}

export const SEAM = "app/services/sql-statements.server.ts";

/** The files that run raw SQL through Prisma themselves instead of through a declared statement (the seam alone may). */
export function undeclaredRawSql(files: { path: string; source: string }[]): string[] {
  const raw = /\$(queryRaw|executeRaw)(Unsafe)?\b/;
  return files.filter((f) => f.path !== SEAM && raw.test(f.source.replace(/^\s*(\/\/|\*).*$/gm, ""))).map((f) => f.path);
}

/**
 * The models' statements on the `sql` driver that stay outside the seam, by file, with how many each holds
 * and why: they work on every table alike (a name from the catalogue or the archive, quoted into the text),
 * or read the catalogue to find those tables, which no declaration of ours can describe as one statement.
 */
export const UNDECLARED_DRIVER_SQL: Readonly<Record<string, { statements: number; why: string }>> = {
  "app/models/backups/restore.server.ts": {
    statements: 4,
    why: "the restore lists the tables and their foreign keys from the catalogue, and counts and probes each table by name",
  },
};

/**
 * The files of app/models that run a statement written as a literal on the `sql` driver (`sql.query` or `tx.query<Row>`
 * given a string or template literal) instead of a declared one through driverRows or driverExecute, beyond what
 * UNDECLARED_DRIVER_SQL allows them, each with the number it holds.
 */
export function undeclaredDriverSql(files: { path: string; source: string }[], allowed = UNDECLARED_DRIVER_SQL): string[] {
  const literal = /\.query\s*(?:<[^()]*?>)?\(\s*[`'"]/g;
  return files
    .filter((f) => f.path.startsWith("app/models/"))
    .map((f) => ({ path: f.path, statements: f.source.replace(/^\s*(\/\/|\*).*$/gm, "").match(literal)?.length ?? 0 }))
    .filter((f) => f.statements > (allowed[f.path]?.statements ?? 0))
    .map((f) => `${f.path} (${f.statements})`);
}

/** How many statements each file declares (sqlQuery, sqlCommand), for the files that declare any. */
export function declarationsIn(files: { path: string; source: string }[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const f of files) {
    if (f.path === SEAM) continue;
    const n = f.source.match(/\bsql(Query|Command)\(\{/g)?.length ?? 0;
    if (n) counts.set(f.path, n);
  }
  return counts;
}
