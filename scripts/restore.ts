// `npm run restore -- <archive> [--force]`: restores a backup (`npm run backup`) into the database and file
// storage this environment is configured for: the embedded database in DATA_DIR, or PostgreSQL when
// DATABASE_URL is set; uploads to DATA_DIR/uploads or S3_BUCKET. The archive is checked whole before anything
// is written; a target that already holds a site is refused unless --force (an embedded database replaced is
// kept beside it). Restoring an embedded site's archive with DATABASE_URL set moves the site to PostgreSQL.
import process from "node:process";
import { restoreBackup } from "../app/models/backups/restore.server";
import { closeDatabase } from "../app/services/db.server";

const args = process.argv.slice(2);
const archive = args.find((arg) => !arg.startsWith("--"));
const force = args.includes("--force");

if (!archive) {
  console.error("Usage: npm run restore -- <archive.tar> [--force]");
  process.exitCode = 2;
} else {
  const started = Date.now();
  let code = 0;
  try {
    const report = await restoreBackup(archive, { force, log: (line) => console.log(line) });
    console.log(`Done in ${Math.round((Date.now() - started) / 1000)} s. The site made on ${report.manifest.createdAt} is back in ${report.target}.`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    code = 1;
  } finally {
    await closeDatabase().catch(() => {});
  }
  // Set once the database is closed: the embedded one's shutdown sets the process's exit code of its own.
  process.exitCode = code;
}
