import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { findPostgresBinaries, startCluster, type Cluster } from "../test/postgres-cluster";

// Starts the production build (`npm run build` must have run: `npm test` does it) on 127.0.0.1 and a
// free port, with a temp data folder and the demo data. Where PostgreSQL's binaries exist the app runs
// on a throw-away cluster, so fixtures can write test data straight into the same database
// (E2E_DATABASE_URL); otherwise on embedded PGlite. The server stops with this process.
export default async function globalSetup() {
  if (!existsSync("build/server/index.js")) throw new Error("No build found: run `npm run build` before the e2e tests.");
  const dataDir = mkdtempSync(path.join(tmpdir(), "everlight-e2e-"));
  let cluster: Cluster | undefined;
  let databaseUrl: string | undefined;
  if (!("missing" in findPostgresBinaries())) {
    cluster = await startCluster();
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query("CREATE DATABASE everlight_e2e");
    await admin.end();
    databaseUrl = cluster.url.replace(/\/postgres$/, "/everlight_e2e");
  } else {
    console.warn("e2e: PostgreSQL binaries not found; the app runs on embedded PGlite.");
  }

  const sessionSecret = randomBytes(32).toString("hex");
  process.env.E2E_SESSION_SECRET = sessionSecret;
  // Passwords hashed at a low scrypt cost, by the server and by the tests' own test users (production keeps 17).
  process.env.PASSWORD_HASH_COST = "12";
  const child = spawn(process.execPath, ["server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      SESSION_SECRET: sessionSecret,
      // The tests talk plain http to 127.0.0.1; production keeps Secure cookies.
      SESSION_COOKIE_SECURE: "false",
      // Each test sends its own client address (e2e/fixtures.ts), so per-address limits do not add up
      // across the suite.
      TRUST_PROXY: "true",
      // A developer's own key must never make the tests call OpenAI: the offline writer answers.
      OPENAI_API_KEY: "",
      // Nor a developer's mail server: emails go to DATA_DIR/outbox, where the journeys read them.
      SMTP_URL: "",
      // Nor a developer's Stripe account: journeys pay through the built-in test provider.
      PAYMENT_PROVIDER: "",
      STRIPE_SECRET_KEY: "",
      STRIPE_PUBLISHABLE_KEY: "",
      STRIPE_WEBHOOK_SECRET: "",
      DATABASE_URL: databaseUrl ?? "",
      // The suite makes no backups of its own data; the backup tests start their servers with a schedule.
      BACKUP_SCHEDULE: "off",
      STOP_WITH_PARENT_PID: String(process.pid),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Server did not start in 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => reject(new Error(`Server exited with ${code}:\n${output}`)));
  });
  process.env.E2E_BASE_URL = baseUrl;
  // Emails are written as .eml files under DATA_DIR/outbox (no SMTP_URL): journeys read them there (e2e/mail.ts).
  process.env.E2E_DATA_DIR = dataDir;
  // A server that dies during the run fails every test after it with "connection refused": say why.
  let stopping = false;
  let recent = "";
  const keep = (chunk: Buffer) => void (recent = (recent + chunk.toString()).slice(-8000));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  child.on("exit", (code, signal) => {
    if (!stopping) console.error(`e2e: the server stopped during the run (code ${code}, signal ${signal}). Its last output:\n${recent}`);
  });
  if (databaseUrl) process.env.E2E_DATABASE_URL = databaseUrl;

  return async () => {
    stopping = true;
    child.kill("SIGTERM");
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once("exit", r)));
    cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
