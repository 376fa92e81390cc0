import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { Prisma } from "~/generated/prisma/client";
import type { SqlDriver } from "~/services/db.server";
import { declaredStatements, driverRows, unregisteredQuery, type BoundQuery, type RowOf } from "~/services/sql-statements.server";
import { openMigratedPglite } from "./databases";
import { declarationsIn, sourceFiles, statementProblems, undeclaredDriverSql, undeclaredRawSql, type Describe } from "./sql-statements";

// Every raw statement the models declare (app/services/sql-statements.server.ts), described by the
// migrated embedded database without being run: its tables and columns exist, and it returns the columns
// declared, of the types declared. Whether a column may be NULL is the declaration's word: a description
// does not say (the models' own tests read those rows).

const files = sourceFiles();
const declaring = declarationsIn(files);

let pglite: PGlite;
let describeSql: Describe;
let typeNames: Map<number, string>;

beforeAll(async () => {
  pglite = await openMigratedPglite();
  describeSql = (sql) => pglite.describeQuery(sql);
  const types = await pglite.query<{ oid: number; typname: string }>(`SELECT oid::int AS oid, typname FROM pg_type`);
  typeNames = new Map(types.rows.map((t) => [t.oid, t.typname]));
  for (const file of declaring.keys()) await import(/* @vite-ignore */ path.resolve(file));
});

afterAll(async () => {
  await pglite?.close();
});

describe("the declared raw statements", () => {
  it("are every one registered when their modules load, each under a name of its own", () => {
    const declared = [...declaring.values()].reduce((total, n) => total + n, 0);
    expect(declared).toBeGreaterThan(25);
    expect(declaredStatements().length).toBe(declared);
  });

  it("match the migrated schema: their tables and columns exist and they return the columns declared", async () => {
    const problems: string[] = [];
    for (const statement of declaredStatements()) problems.push(...(await statementProblems(describeSql, typeNames, statement)));
    expect(problems).toEqual([]);
  });

  it("are the only raw SQL run through Prisma in app/, server/ and scripts/", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(undeclaredRawSql(files)).toEqual([]);
  });

  it("are the only SQL the models run on the `sql` driver, the restore's table-generic statements aside", () => {
    expect(undeclaredDriverSql(files)).toEqual([]);
  });
});

describe("the check itself", () => {
  const check = (statement: Parameters<typeof statementProblems>[2]) => statementProblems(describeSql, typeNames, statement);

  it("names the statement and the column declared with the wrong type", async () => {
    const wrongType = unregisteredQuery({
      name: "test.wrongType",
      columns: { id: "text", createdAt: "timestamptz", isAdmin: "bool" },
      sql: (id: string) => Prisma.sql`SELECT "id", "createdAt", "isAdmin" FROM "users" WHERE "id" = ${id}`,
      examples: [["member"]],
    });
    expect(await check(wrongType)).toEqual(['test.wrongType: column "createdAt" is declared timestamptz but the statement returns timestamp']);
  });

  it("names a misspelled column in the statement, as the database reports it", async () => {
    const misspelled = unregisteredQuery({
      name: "test.misspelled",
      columns: { id: "text" },
      sql: () => Prisma.sql`SELECT "id" FROM "users" WHERE "emial" = 'a@example.com'`,
    });
    expect(await check(misspelled)).toEqual(['test.misspelled: column "emial" does not exist']);
  });

  it("names a declared column the statement does not return, and one it returns undeclared", async () => {
    const drifted = unregisteredQuery({
      name: "test.drifted",
      columns: { id: "text", firstname: "text" },
      sql: () => Prisma.sql`SELECT "id", "firstName" FROM "users"`,
    });
    expect(await check(drifted)).toEqual([
      'test.drifted: column "firstname" is declared but the statement returns no such column',
      'test.drifted: the statement returns column "firstName" (text), which is not declared',
    ]);
  });

  it("describes each example of a statement built with optional clauses, and says which one failed", async () => {
    const optional = unregisteredQuery({
      name: "test.optional",
      columns: { id: "text" },
      sql: (onlyAdmins: boolean) => Prisma.sql`SELECT "id" FROM "users" WHERE true ${onlyAdmins ? Prisma.sql`AND "isAdmn"` : Prisma.empty}`,
      examples: [[false], [true]],
    });
    expect(await check(optional)).toEqual(['test.optional (example 2): column "isAdmn" does not exist']);
  });

  it("derives the row type from the declared columns, and asks for examples of a statement with arguments", () => {
    expectTypeOf<RowOf<{ id: "text"; total: "int8"; at: "timestamp | null"; done: "bool" }>>().toEqualTypeOf<{
      id: string;
      total: bigint;
      at: Date | null;
      done: boolean;
    }>();
    // @ts-expect-error: the statement takes an argument, so the check needs an example of it.
    unregisteredQuery({ name: "test.noExamples", columns: { id: "text" }, sql: (id: string) => Prisma.sql`SELECT ${id}::text AS "id"` });
    // @ts-expect-error: an example's arguments are the statement's own.
    unregisteredQuery({ name: "test.wrongExample", columns: { id: "text" }, sql: (id: string) => Prisma.sql`SELECT ${id}::text AS "id"`, examples: [[1]] });
  });

  it("runs on the driver only the statements whose declared types both drivers read alike", () => {
    type Counted = { n: "int4"; at: "timestamptz | null" };
    type Big = { n: "int8" };
    // Only their types matter here: nothing is run.
    const typesOnly = (driver: Pick<SqlDriver, "query">, counted: BoundQuery<RowOf<Counted>, Counted>, big: BoundQuery<RowOf<Big>, Big>) => {
      expectTypeOf(driverRows(driver, counted)).resolves.toEqualTypeOf<{ n: number; at: Date | null }[]>();
      // @ts-expect-error: an int8 is a number on PGlite and a string from node-postgres, so no type fits both.
      void driverRows(driver, big);
    };
    expect(typesOnly).toBeTypeOf("function");
  });

  it("finds statements written as literals on the driver in the models, beyond those allowed", () => {
    expect(
      undeclaredDriverSql(
        [
          { path: "app/models/a.server.ts", source: 'await getDatabase().sql.query<{ id: string }>(\n  `SELECT "id" FROM "users"`,\n);' },
          { path: "app/models/b.server.ts", source: "await tx.query('DELETE FROM \"users\"');\n// once sql.query(`SELECT 1`)" },
          { path: "app/models/c.server.ts", source: "await driverRows(getDatabase().sql, found(id));" },
          { path: "app/models/d.server.ts", source: "await sql.query(`SELECT 1 FROM ${quoted(table)}`);" },
          { path: "app/services/e.server.ts", source: "await sql.query(`SELECT 1`);" },
        ],
        { "app/models/d.server.ts": { statements: 1, why: "generic" } },
      ),
    ).toEqual(["app/models/a.server.ts (1)", "app/models/b.server.ts (1)"]);
  });

  it("finds raw SQL run through Prisma outside the declared statements, comments aside", () => {
    expect(
      undeclaredRawSql([
        { path: "app/models/a.server.ts", source: 'await tx.$executeRaw`DELETE FROM "users"`;' },
        { path: "app/models/b.server.ts", source: "await prisma().$queryRawUnsafe(text);" },
        { path: "app/models/c.server.ts", source: "// once ran through $queryRaw\nawait queryRows(tx, found(id));" },
        { path: "app/services/sql-statements.server.ts", source: "db.$queryRaw<Row[]>(query.sql)" },
      ]),
    ).toEqual(["app/models/a.server.ts", "app/models/b.server.ts"]);
  });
});
