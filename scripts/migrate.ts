// `npm run db:migrate`: applies pending migrations to the configured database (PGlite in DATA_DIR,
// or DATABASE_URL) and exits non-zero with a clear message if one fails.
import { closeDatabase, getDatabase } from "../app/services/db.server";
import { migrate } from "../app/services/migrate.server";

let code = 0;
try {
  const result = await migrate(getDatabase().sql);
  for (const warning of result.warnings) console.warn(`Warning: ${warning}`);
  console.log(result.applied.length ? `Applied: ${result.applied.join(", ")}` : "Nothing to apply: the database is up to date.");
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  code = 1;
} finally {
  await closeDatabase();
}
// Set once the database is closed: the embedded one's shutdown sets the process's exit code of its own.
process.exitCode = code;
