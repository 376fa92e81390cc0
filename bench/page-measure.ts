import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { findPostgresBinaries, freePort, startCluster } from "../test/postgres-cluster";
import { startBenchApp, stop } from "./app-server";

// What the page benchmarks share (public-pages, member-pages): wrk and nginx from Debian, the production
// server with the demo data, a page's compressed bytes as the app sends them, and the ceilings — node:http
// (bench/ceiling-server.mjs) and nginx answering those same bytes — measured in the same run.

export type Run = { requestsPerSecond: number; p99Ms: number; non2xx: number; errors: number; requests?: number };

export function have(command: string) {
  return spawnSync("sh", ["-c", `command -v ${command}`]).status === 0;
}

/** wrk and nginx come from Debian: installed when missing (as root), as the project's machines allow. */
export function ensureDebianPackage(command: string, pkg: string): boolean {
  if (have(command)) return true;
  if (process.getuid?.() !== 0) return false;
  console.log(`Installing ${pkg} from Debian…`);
  spawnSync("apt-get", ["update", "-qq"], { stdio: "ignore" });
  spawnSync("apt-get", ["install", "-y", "-qq", pkg], { stdio: "ignore", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  return have(command);
}

export function nginxBinary() {
  for (const candidate of ["nginx", "/usr/sbin/nginx"]) if (spawnSync(candidate, ["-v"]).status === 0) return candidate;
  return null;
}

function parseDuration(text: string): number {
  const match = /([\d.]+)(us|ms|s|m)/.exec(text);
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return match[2] === "us" ? value / 1000 : match[2] === "ms" ? value : match[2] === "s" ? value * 1000 : value * 60_000;
}

export type WrkOptions = { connections?: number; headers?: Record<string, string>; script?: string };

/** wrk -t2 against `url` for `seconds`, asking for gzip, with these headers (a session cookie) and Lua script. */
export function wrk(url: string, seconds: number, options: WrkOptions = {}): Run {
  const args = ["-t2", `-c${options.connections ?? 32}`, `-d${seconds}s`, "--latency", "-H", "Accept-Encoding: gzip"];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push("-H", `${name}: ${value}`);
  if (options.script) args.push("-s", options.script);
  const result = spawnSync("wrk", [...args, url], { encoding: "utf8" });
  const out = result.stdout ?? "";
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? Number.NaN);
  const p99 = parseDuration(/^\s+99%\s+(\S+)/m.exec(out)?.[1] ?? "");
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const errors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  return { requestsPerSecond: Math.round(rps), p99Ms: +p99.toFixed(2), non2xx, errors, requests };
}

export function waitForLine(child: ChildProcess, pattern: RegExp, what: string, timeoutMs = 180_000): Promise<RegExpMatchArray> {
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start in ${timeoutMs / 1000} s:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(pattern);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code}:\n${output}`));
    });
  });
}

// ───────────────────────────── the app ─────────────────────────────

/** The production server with the demo data on this database ("" for PGlite), on 127.0.0.1 (bench/app-server.ts). */
export function startApp(databaseUrl: string, env: Record<string, string> = {}) {
  return startBenchApp({
    DATABASE_URL: databaseUrl,
    SEED_DEMO_DATA: "true",
    BACKUP_SCHEDULE: "off",
    STRIPE_SECRET_KEY: "",
    STRIPE_PUBLISHABLE_KEY: "",
    STRIPE_WEBHOOK_SECRET: "",
    ...env,
  });
}

/** Builds the app unless BENCH_NO_BUILD=1 says the build is there already. */
export function buildUnlessAsked() {
  if (process.env.BENCH_NO_BUILD === "1") return;
  console.log("Building the app…");
  const build = spawnSync("npm", ["run", "build"], { stdio: "ignore" });
  if (build.status !== 0) throw new Error("The build failed: run `npm run build` to see why.");
}

/** An /api call with a session cookie; answers the JSON, or throws with the status and body. */
export async function api<T>(base: string, cookie: string, pathname: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(base + pathname, { ...init, headers: { Cookie: cookie, "Content-Type": "application/json", ...init.headers } });
  if (!res.ok) throw new Error(`${pathname} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** The machine's load averages (1, 5, 15 minutes), for the note under a table. */
export function loadAverage() {
  return os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(", ");
}

/** Runs `measure` on a throw-away PostgreSQL cluster, or says why not and answers null. */
export async function onPostgres<T>(what: string, measure: (databaseUrl: string) => Promise<T>): Promise<T | null> {
  const bins = findPostgresBinaries();
  if ("missing" in bins) {
    console.log(`${what} skipped: ${bins.missing}.`);
    return null;
  }
  const cluster = await startCluster();
  try {
    return await measure(cluster.url);
  } finally {
    cluster.stop();
  }
}

/** The page's bytes as the app sends them to whoever the headers say (a visitor, or a session cookie) asking for gzip (compressed here if it came plain); a redirect is an error: it is not the page. */
export function pageBytes(url: string, headers: Record<string, string> = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "Accept-Encoding": "gzip", ...headers } }, (res) => {
        if ((res.statusCode ?? 0) >= 300 && (res.statusCode ?? 0) < 400) {
          res.resume();
          return reject(new Error(`${url} answered ${res.statusCode}${res.headers.location ? ` → ${res.headers.location}` : ""}`));
        }
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          resolve(res.headers["content-encoding"] === "gzip" ? body : gzipSync(body, { level: 9 }));
        });
      })
      .on("error", reject);
  });
}

// ───────────────────────────── the ceilings ─────────────────────────────

export async function startCeilings(dir: string, files: string[], withNginx: boolean) {
  const manifest = Object.fromEntries(files.map((file, i) => [`/p${i}`, file]));
  const manifestFile = path.join(dir, "manifest.json");
  writeFileSync(manifestFile, JSON.stringify(manifest));
  const node = spawn(process.execPath, [path.join("bench", "ceiling-server.mjs"), manifestFile], { stdio: ["ignore", "pipe", "pipe"] });
  const [, port] = await waitForLine(node, /listening (\d+)/, "The node:http ceiling", 30_000);
  let nginx: ChildProcess | null = null;
  let nginxPort: number | null = null;
  const binary = withNginx ? nginxBinary() : null;
  if (binary) {
    nginxPort = await freePort();
    const conf = path.join(dir, "nginx.conf");
    writeFileSync(
      conf,
      `daemon off; worker_processes 1; error_log ${dir}/nginx-error.log; pid ${dir}/nginx.pid;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/tmp; proxy_temp_path ${dir}/tmp; fastcgi_temp_path ${dir}/tmp; uwsgi_temp_path ${dir}/tmp; scgi_temp_path ${dir}/tmp;
  server {
    listen 127.0.0.1:${nginxPort};
    location / { root ${dir}; default_type text/html; add_header Content-Encoding gzip; try_files $uri.html.gz =404; }
  }
}
`,
    );
    mkdirSync(path.join(dir, "tmp"), { recursive: true });
    nginx = spawn(binary, ["-c", conf, "-p", dir], { stdio: ["ignore", "pipe", "pipe"] });
    // nginx prints nothing when it starts: ask it until it answers.
    for (let i = 0; i < 50; i++) {
      const ok = await fetch(`http://127.0.0.1:${nginxPort}/p0`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    nodeUrl: (i: number) => `http://127.0.0.1:${port}/p${i}`,
    nginxUrl: nginxPort ? (i: number) => `http://127.0.0.1:${nginxPort}/p${i}` : null,
    stop: async () => {
      await stop(node);
      if (nginx) await stop(nginx);
    },
  };
}
