import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, openDatabase, setDatabase } from "~/services/db.server";
import { loader as healthz } from "~/routes/healthz";

// `npm start` as a user meets it: the built server on embedded PGlite in a fresh data folder creates
// the database, migrates, loads the demo data, serves, stops cleanly on Ctrl-C, and keeps its data.

type Started = { child: ChildProcess; url: string; output: () => string; exited: Promise<number | null> };

function startServer(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, ["server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: "0",
      HOST: "127.0.0.1",
      DATABASE_URL: "",
      BACKUP_SCHEDULE: "off",
      STOP_WITH_PARENT_PID: String(process.pid),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start in 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1], output: () => output, exited });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    exited.then((code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`exited with ${code}`), { output }));
    });
  });
}

describe("the production server on embedded PGlite", () => {
  let dataDir: string;
  beforeAll(() => {
    if (!existsSync("build/server/index.js")) throw new Error("No build found: run `npm run build` first (npm test does).");
    dataDir = mkdtempSync(path.join(tmpdir(), "everlight-start-"));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("creates and seeds the database on first start, stops on Ctrl-C, and keeps the data on the next start", async () => {
    const first = await startServer({ DATA_DIR: dataDir });
    // Said in one short line, however many there are.
    const migrations = first
      .output()
      .split("\n")
      .find((line) => line.includes("Migrations:"))!;
    expect(migrations).toMatch(/Migrations: \d+ applied, the newest \d+_\w+/);
    expect(migrations.length).toBeLessThan(120);
    expect(first.output()).toContain("admin@everlight.test");
    expect(existsSync(path.join(dataDir, "db", "PG_VERSION"))).toBe(true);
    const health = await fetch(`${first.url}/healthz`);
    expect(health.status).toBe(200);
    const landing = await fetch(first.url, { headers: { "Accept-Encoding": "gzip" } });
    expect(landing.status).toBe(200);
    expect(landing.headers.get("content-encoding")).toBe("gzip");
    expect(await landing.text()).toContain("Recent Memorials");

    first.child.kill("SIGINT");
    expect(await first.exited).toBe(0);

    const second = await startServer({ DATA_DIR: dataDir });
    expect(second.output()).toMatch(/Migrations: up to date/);
    expect(second.output()).not.toContain("Demo data loaded");
    expect(await (await fetch(second.url)).text()).toContain("Recent Memorials");
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  }, 120_000);

  it("refuses to start with a clear message when the database cannot be reached", async () => {
    const failed = await startServer({ DATABASE_URL: "postgresql://nobody@127.0.0.1:1/none", DATA_DIR: dataDir }).catch((e) => e);
    expect(failed).toBeInstanceOf(Error);
    expect(failed.message).toBe("exited with 1");
    expect(failed.output).toContain("Everlight could not start.");
    expect(failed.output).not.toMatch(/\n\s+at /); // no stack trace
  }, 60_000);

  it("serves hashed assets with a year-long immutable cache, from copies compressed at build time", async () => {
    const server = await startServer({ DATA_DIR: dataDir });
    try {
      const html = await (await fetch(server.url)).text();
      const asset = html.match(/\/assets\/[^"]+\.css/)?.[0];
      expect(asset).toBeDefined();
      const response = await fetch(server.url + asset);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toMatch(/max-age=31536000.*immutable/);

      const script = html.match(/\/assets\/entry\.client-[^"]+\.js/)?.[0];
      expect(script).toBeDefined();
      const original = readFileSync(path.join("build/client", script!));
      const get = (encoding: string) =>
        new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
          http
            .get(server.url + script, { headers: { "Accept-Encoding": encoding } }, (res) => {
              const chunks: Buffer[] = [];
              res.on("data", (c: Buffer) => chunks.push(c)).on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
            })
            .on("error", reject);
        });
      const br = await get("gzip, deflate, br, zstd");
      expect(br.headers["content-encoding"]).toBe("br");
      expect(br.headers["content-type"]).toMatch(/^text\/javascript/);
      expect(br.headers["cache-control"]).toMatch(/immutable/);
      expect(brotliDecompressSync(br.body).equals(original)).toBe(true);
      expect(br.body.length).toBeLessThan(original.length / 3);
      const gz = await get("gzip");
      expect(gz.headers["content-encoding"]).toBe("gzip");
      expect(gunzipSync(gz.body).equals(original)).toBe(true);
      const plain = await get("identity");
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.body.equals(original)).toBe(true);
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
  }, 60_000);
});

describe("GET /healthz", () => {
  afterAll(() => setDatabase(undefined));
  it("answers 503 when the database is unreachable", async () => {
    setDatabase(openDatabase({ databaseUrl: "postgresql://nobody@127.0.0.1:1/none" }));
    const response = await healthz();
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: "unavailable", database: "unreachable" });
    await closeDatabase();
  });
});
