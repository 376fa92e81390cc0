// Dumps the rows of an embedded database folder with PGlite's own pg_dump (@electric-sql/pglite-tools),
// in a process of its own: pg_dump runs synchronously in WebAssembly, so a server that ran it itself would
// answer nothing until it ended. The folder is a snapshot copy no one else uses (app/services/database-dump.server.ts).
//
//   node scripts/pglite-dump.mjs <database folder> <output .sql file> <pg_dump argument>…
import { writeFileSync } from "node:fs";
import process from "node:process";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { pgDump } from "@electric-sql/pglite-tools/pg_dump";

const [dir, out, ...args] = process.argv.slice(2);
if (!dir || !out) {
  console.error("Usage: node scripts/pglite-dump.mjs <database folder> <output .sql file> <pg_dump argument>…");
  process.exit(2);
}
try {
  const pg = new PGlite(dir, { extensions: { pg_trgm } });
  await pg.waitReady;
  const dump = await pgDump({ pg, args });
  writeFileSync(out, Buffer.from(await dump.arrayBuffer()), { mode: 0o600 });
  await pg.close();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
