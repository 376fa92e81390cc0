import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { dumpStatements, DumpError, insertedRows } from "./database-dump.server";

// The dump's statements are read back one at a time (a restore loads them in batches and counts their
// rows): a tribute's words may hold anything, and pg_dump's own lines (comments, settings, psql commands
// a newer pg_dump writes) are not statements to run.

const folder = mkdtempSync(path.join(tmpdir(), "everlight-dump-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function statementsOf(text: string) {
  const file = path.join(folder, `${Math.random()}.sql`);
  writeFileSync(file, text);
  const found: string[] = [];
  for await (const statement of dumpStatements(file)) found.push(statement);
  return found;
}

const DUMP = `--
-- PostgreSQL database dump
--

\\restrict AbCdEf123

SET statement_timeout = 0;
SET transaction_timeout = 0;
SELECT pg_catalog.set_config('search_path', '', false);

--
-- Data for Name: tributes; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.tributes (id, content, "authorName") VALUES
\t('t1', 'She said; "always" -- and meant it.
Then: \\restrict nothing', 'Ann O''Neil'),
\t('t2', '(a (nested) note)', 'Bo');
INSERT INTO public."odd""name" (id) VALUES
\t('x');

SELECT pg_catalog.setval('public.seq', 42, true);

\\unrestrict AbCdEf123
`;

describe("a dump's statements", () => {
  it("are whole statements, quotes followed, without comments, settings or psql commands", async () => {
    const statements = await statementsOf(DUMP);
    expect(statements).toHaveLength(3);
    expect(statements[0]).toContain(`'She said; "always" -- and meant it.\nThen: \\restrict nothing'`);
    expect(statements[0].endsWith(`'Bo');`)).toBe(true);
    expect(statements[2]).toBe("SELECT pg_catalog.setval('public.seq', 42, true);");
  });

  it("count the rows each INSERT holds, by table", async () => {
    const [tributes, odd, setval] = await statementsOf(DUMP);
    expect(insertedRows(tributes)).toEqual({ table: "tributes", rows: 2 });
    expect(insertedRows(odd)).toEqual({ table: 'odd"name', rows: 1 });
    expect(insertedRows(setval)).toBeNull();
  });

  it("refuse a dump cut in the middle of a statement", async () => {
    await expect(statementsOf(DUMP.slice(0, DUMP.indexOf("'Bo')")))).rejects.toThrow(DumpError);
  });

  it("are found across the chunks a large dump is read in", async () => {
    const row = `\t('id', '${"x".repeat(3000)};\n''${"y".repeat(1000)}'),\n`;
    const big = `INSERT INTO public.tributes (id, content) VALUES\n${row.repeat(999)}${row.replace(/,\n$/, ";\n")}`;
    const statements = await statementsOf(`${big}${big}`);
    expect(statements).toHaveLength(2);
    expect(insertedRows(statements[1])).toEqual({ table: "tributes", rows: 1000 });
  });
});
