// `npm run db:migrate`: applies pending migrations to the configured database (PGlite in DATA_DIR,
// or DATABASE_URL) and exits non-zero with a clear message if one fails.
import { closeDatabase, getDatabase } from "../app/services/db.server";
import { migrate } from "../app/services/migrate.server";

try {
  const result = await migrate(getDatabase().sql);
  for (const warning of result.warnings) console.warn(`Warning: ${warning}`);
  console.log(result.applied.length ? `Applied: ${result.applied.join(", ")}` : "Nothing to apply: the database is up to date.");
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await closeDatabase();
}
