import { writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { startCluster, type Cluster } from "./postgres-cluster";
import { openDatabase, PGLITE_EXTENSIONS } from "../app/services/db.server";
import { migrate } from "../app/services/migrate.server";

// Prepares the two databases every integration test runs on:
// - PGlite: migrated once, dumped to a tarball that each test file loads (faster than migrating again);
// - PostgreSQL: a throw-away cluster with a migrated template database that each test file clones.

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
    pgliteTemplateDir: string;
    postgresUrl: string | null;
    postgresSkipReason: string | null;
  }
}

export const TEMPLATE_DB = "everlight_template";

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), "everlight-test-"));
  // Migrated in a folder on disk: servers the tests start on PGlite (test/http.ts) copy it instead of
  // migrating a fresh database, which cost each start about 14 s of CPU.
  const templateDir = path.join(dir, "pglite-template");
  const pglite = new PGlite(templateDir, { extensions: PGLITE_EXTENSIONS });
  await migrate(openDatabase({ pglite }).sql);
  const dump = await pglite.dumpDataDir("none");
  const templatePath = path.join(dir, "pglite-template.tar");
  writeFileSync(templatePath, Buffer.from(await dump.arrayBuffer()));
  await pglite.close();
  project.provide("pgliteTemplate", templatePath);
  project.provide("pgliteTemplateDir", templateDir);

  let cluster: Cluster | undefined;
  try {
    // `npm run test:fast` runs on PGlite alone (TEST_DATABASES=pglite): no cluster to start.
    if (process.env.TEST_DATABASES === "pglite") throw new Error("TEST_DATABASES=pglite");
    cluster = await startCluster();
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
    await admin.end();
    const template = openDatabase({ databaseUrl: cluster.url.replace(/\/postgres$/, `/${TEMPLATE_DB}`) });
    await migrate(template.sql);
    await template.close();
    project.provide("postgresUrl", cluster.url);
    project.provide("postgresSkipReason", null);
  } catch (error) {
    const reason = `PostgreSQL half of the integration suite skipped: ${error instanceof Error ? error.message : error}`;
    console.warn(`\n${reason}\n`);
    project.provide("postgresUrl", null);
    project.provide("postgresSkipReason", reason);
  }

  return () => {
    cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
