import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { openDatabase, pgliteDirectory, type Database } from "~/services/db.server";
import { createPostgresDatabase } from "./databases";

// The BUILT server (server.js + build/server/index.js) on a fresh database, for testing resource
// routes and headers over real HTTP (integration layer), and a small cookie-keeping client.
//
// The database is a new one cloned from the migrated PostgreSQL template of the global setup when the
// throw-away cluster runs, else embedded PGlite in the server's temp data folder, copied from the
// migrated PGlite folder of the global setup (test/server-start.test.ts starts on a really empty one).
//
// TRUST_PROXY is on, and every client sends its own random X-Forwarded-For address, so tests that
// share the server do not share per-address rate limits (all requests come from 127.0.0.1).

export type TestServer = {
  url: string;
  database: "postgres" | "pglite";
  /** The server's PostgreSQL database, for tests that set up data directly (undefined on PGlite). */
  databaseUrl?: string;
  /** The server's DATA_DIR (its uploads, and its emails under outbox/ when no SMTP_URL is set). */
  dataDir: string;
  /** Everything the server printed so far. */
  output: () => string;
  /** The server process's id (its memory is read from /proc/<pid>/status). */
  pid: number;
  /** Sends the server process a signal (a stop, as a deployment would), and how it ended. */
  kill: (signal: NodeJS.Signals) => void;
  exited: Promise<number | null>;
  stop: () => Promise<void>;
};

/** Which database the server runs on: PostgreSQL where the throw-away cluster runs (the default), or PGlite. */
export type ServerDatabase = "postgres" | "pglite";

/** The kinds of database a test should run on here: both where PostgreSQL runs, else PGlite only. */
export function serverDatabases(): ServerDatabase[] {
  return inject("postgresUrl") ? ["pglite", "postgres"] : ["pglite"];
}

export type StartOptions = {
  database?: ServerDatabase;
  /** Runs on this DATA_DIR, left in place on stop (a second server on one folder, a restart): a copy of the migrated template where it has no database yet. */
  dataDir?: string;
  /** Runs on this PostgreSQL database as it is (empty, or another server's), not dropped on stop. */
  databaseUrl?: string;
  /** Writes test data straight into the server's database before it starts (migrated by then), on either kind. */
  prepare?: (db: Database) => Promise<void>;
};

export async function startServer(env: Record<string, string> = {}, options: StartOptions = {}): Promise<TestServer> {
  if (!existsSync("build/server/index.js")) throw new Error("No build found: run `npm run build` first (npm test does).");
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), "everlight-http-"));
  const usePostgres = options.databaseUrl ? true : options.database ? options.database === "postgres" : !!inject("postgresUrl");
  if (usePostgres && !options.databaseUrl && !inject("postgresUrl")) throw new Error(inject("postgresSkipReason") ?? "PostgreSQL is not available");
  const database = options.databaseUrl
    ? { url: options.databaseUrl, drop: async () => {} }
    : usePostgres
      ? await createPostgresDatabase("everlight_template")
      : null;
  // PGlite starts as a copy of the database the global set-up migrated (test/global-setup.ts).
  if (!database && !existsSync(pgliteDirectory(dataDir))) cpSync(inject("pgliteTemplateDir"), pgliteDirectory(dataDir), { recursive: true });
  if (options.prepare) {
    const db = database ? openDatabase({ databaseUrl: database.url }) : openDatabase({ pgliteDir: pgliteDirectory(dataDir) });
    try {
      await options.prepare(db);
    } finally {
      await db.close();
    }
  }
  const child = spawn(process.execPath, ["server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: database?.url ?? "",
      SEED_DEMO_DATA: "false",
      SESSION_COOKIE_SECURE: "false",
      SESSION_SECRET: randomBytes(32).toString("base64url"),
      TRUST_PROXY: "true",
      // Passwords hashed at a low scrypt cost: every test signs members up and in (production keeps 17).
      PASSWORD_HASH_COST: "12",
      STOP_WITH_PARENT_PID: String(process.pid),
      // One server process, whose pid is `pid` (its memory is read): test/workers.test.ts asks for several.
      WORKERS: "1",
      // A developer's own services are never used by the tests.
      OPENAI_API_KEY: "",
      SMTP_URL: "",
      // Nor a developer's Stripe account: the built-in test provider takes payments unless a test says otherwise.
      PAYMENT_PROVIDER: "",
      STRIPE_SECRET_KEY: "",
      STRIPE_PUBLISHABLE_KEY: "",
      STRIPE_WEBHOOK_SECRET: "",
      STRIPE_API_URL: "",
      // No backup of a test's data unless the test asks for one (test/backups.test.ts).
      BACKUP_SCHEDULE: "off",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const cleanUp = async () => {
    await database?.drop().catch(() => {});
    if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  let url: string;
  try {
    url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`The server did not start in 60 s:\n${output}`)), 60_000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const match = output.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", onData);
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`The server exited with ${code}:\n${output}`));
      });
    });
  } catch (error) {
    await stopChild(child, exited);
    await cleanUp();
    throw error;
  }
  let stopped: Promise<void> | undefined;
  return {
    url,
    database: database ? "postgres" : "pglite",
    databaseUrl: database?.url,
    dataDir,
    output: () => output,
    pid: child.pid!,
    kill: (signal) => void child.kill(signal),
    exited,
    stop: () => (stopped ??= stopChild(child, exited).then(cleanUp)),
  };
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const timeout = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timeout);
}

export type ApiResponse<T = any> = {
  status: number;
  headers: Headers;
  /** The body as text. */
  text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  json: T;
};

export type RequestOptions = {
  /** Sent as JSON (with its content type) unless `body` is given. */
  json?: unknown;
  /** A raw body, sent as it is. */
  body?: string | Uint8Array<ArrayBuffer>;
  headers?: Record<string, string>;
};

export type Client = {
  /** The Cookie header this client sends ("" when it holds none). */
  readonly cookie: string;
  /** The address it claims in X-Forwarded-For. */
  readonly ip: string;
  request: <T = any>(method: string, path: string, options?: RequestOptions) => Promise<ApiResponse<T>>;
  get: <T = any>(path: string, options?: Omit<RequestOptions, "json" | "body">) => Promise<ApiResponse<T>>;
  post: <T = any>(path: string, json?: unknown, options?: RequestOptions) => Promise<ApiResponse<T>>;
  put: <T = any>(path: string, json?: unknown, options?: RequestOptions) => Promise<ApiResponse<T>>;
  delete: <T = any>(path: string, options?: RequestOptions) => Promise<ApiResponse<T>>;
};

/**
 * A client that keeps cookies like a browser would for one site: remembers Set-Cookie (and forgets
 * a cookie that is cleared or expired), sends them back in Cookie.
 */
export function client(
  baseUrl: string,
  options: {
    /** Cookies to start with, as a Cookie header ("a=1; b=2"), e.g. another client's `cookie`. */
    cookie?: string;
    /** The X-Forwarded-For address to claim (default: a random 10.x.y.z). */
    ip?: string;
    /** Sees every response (e.g. to check that no response ever leaks something). */
    onResponse?: (response: ApiResponse, request: { method: string; path: string }) => void;
  } = {},
): Client {
  const jar = new Map<string, string>();
  for (const pair of (options.cookie ?? "").split(/;\s*/)) {
    const at = pair.indexOf("=");
    if (at > 0) jar.set(pair.slice(0, at), pair.slice(at + 1));
  }
  const ip = options.ip ?? `10.${[0, 0, 0].map(() => randomBytes(1)[0]).join(".")}`;
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");

  const remember = (setCookies: string[]) => {
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(";");
      const at = pair.indexOf("=");
      if (at <= 0) continue;
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const attr = (key: string) =>
        attributes
          .map((a) => a.trim())
          .find((a) => a.toLowerCase().startsWith(`${key}=`))
          ?.slice(key.length + 1);
      const maxAge = attr("max-age");
      const expires = attr("expires");
      const gone = !value || (maxAge !== undefined && Number(maxAge) <= 0) || (expires !== undefined && Date.parse(expires) <= Date.now());
      if (gone) jar.delete(name);
      else jar.set(name, value);
    }
  };

  const request = async <T>(method: string, pathname: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> => {
    const headers = new Headers({ "X-Forwarded-For": ip, ...opts.headers });
    if (jar.size && !headers.has("Cookie")) headers.set("Cookie", cookieHeader());
    let body: string | Uint8Array<ArrayBuffer> | undefined = opts.body;
    if (body === undefined && opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json");
    }
    const response = await fetch(new URL(pathname, baseUrl), { method, headers, body, redirect: "manual" });
    remember(response.headers.getSetCookie());
    const text = await response.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const result = { status: response.status, headers: response.headers, text, json };
    options.onResponse?.(result, { method, path: pathname });
    return result;
  };

  return {
    get cookie() {
      return cookieHeader();
    },
    ip,
    request,
    get: (p, o) => request("GET", p, o),
    post: (p, json, o) => request("POST", p, { ...o, json }),
    put: (p, json, o) => request("PUT", p, { ...o, json }),
    delete: (p, o) => request("DELETE", p, o),
  };
}

/** A new member registered through the /api, signed in on a client of their own. */
export async function registerMember(
  baseUrl: string,
  name: { firstName: string; lastName: string } = { firstName: "Test", lastName: "Member" },
): Promise<{ api: Client; id: string }> {
  const api = client(baseUrl);
  const res = await api.post("/api/auth/register", { ...name, email: `m-${randomBytes(5).toString("hex")}@example.test`, password: "Correct1horse" });
  if (res.status !== 201) throw new Error(`Registering a test member answered ${res.status}: ${res.text}`);
  return { api, id: res.json.id };
}

/**
 * One request through node:http, for what fetch will not send (TRACE and other methods it refuses);
 * answers status and body text.
 */
export function rawRequest(
  baseUrl: string,
  method: string,
  pathname: string,
  options: { headers?: Record<string, string>; body?: string | Uint8Array } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const url = new URL(pathname, baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(options.body);
  });
}
