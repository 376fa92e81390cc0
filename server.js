// Everlight's HTTP server: compression, static files with long-lived caching for hashed assets (sent
// from copies compressed at build time), and
// the React Router app. `npm start` builds and runs this; `npm run dev` runs it with Vite in watch mode.
import { existsSync, readdirSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import process from "node:process";
import compression from "compression";
import express from "express";

const DEVELOPMENT = process.env.NODE_ENV === "development";
const PORT = Number.parseInt(process.env.PORT ?? "3000", 10);
const HOST = process.env.HOST ?? "0.0.0.0";

const ASSET_TYPES = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json; charset=utf-8",
};

/**
 * Sends the Brotli or gzip copy of an asset (scripts/compress-assets.mjs) to a browser that accepts it;
 * express.static then serves that file with the original's type. The copies are listed once at start.
 */
function precompressed(dir) {
  const names = new Set(existsSync(dir) ? readdirSync(dir) : []);
  const encodings = [
    { name: "br", suffix: ".br" },
    { name: "gzip", suffix: ".gz" },
  ];
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const file = req.path.slice(1);
    const offered = encodings.filter((e) => names.has(file + e.suffix)).map((e) => e.name);
    if (!offered.length) return next();
    res.vary("Accept-Encoding");
    // The smallest copy the browser takes (browsers list gzip first, which would win a plain negotiation).
    const chosen = offered.find((name) => req.acceptsEncodings(name) === name);
    if (!chosen) return next();
    res.setHeader("Content-Type", ASSET_TYPES[path.extname(file)]);
    res.setHeader("Content-Encoding", chosen);
    req.url = `/${file}${encodings.find((e) => e.name === chosen).suffix}`;
    next();
  };
}

const server = express();
server.disable("x-powered-by");
server.use(compression());

let serverApp;
/** The page caches (server/page-cache.ts, server/member-page-cache.ts), answering kept pages before Express sees them. */
let publicPages = null;
let memberPages = null;
if (DEVELOPMENT) {
  const vite = await import("vite");
  const viteDevServer = await vite.createServer({ server: { middlewareMode: true } });
  server.use(viteDevServer.middlewares);
  serverApp = await viteDevServer.ssrLoadModule("./server/app.ts");
  server.use(serverApp.headers());
  server.use(async (req, res, next) => {
    try {
      const source = await viteDevServer.ssrLoadModule("./server/app.ts");
      return await source.app(req, res, next);
    } catch (error) {
      if (typeof error === "object" && error instanceof Error) viteDevServer.ssrFixStacktrace(error);
      next(error);
    }
  });
} else {
  serverApp = await import("./build/server/index.js");
  publicPages = serverApp.publicPages();
  memberPages = serverApp.memberPages();
  server.use(serverApp.headers());
  // Hashed file names: safe to cache for a year, sent from the copies compressed at build time.
  server.use("/assets", precompressed("build/client/assets"));
  server.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y", index: false }));
  // The other public files (favicon, robots.txt…) all have an extension: pages never wait for a disk look-up.
  const publicFiles = express.static("build/client", { maxAge: "1h", index: false });
  server.use((req, res, next) => (/\.\w+$/.test(req.path) ? publicFiles(req, res, next) : next()));
  server.use(serverApp.app);
}

try {
  await serverApp.prepare();
} catch (error) {
  console.error(`\nEverlight could not start.\n${error instanceof Error ? error.message : error}\n`);
  await serverApp.closeDatabase().catch(() => {});
  process.exit(1);
}

/** Set once a stop signal came: answers from then on close their connection (no keep-alive). */
let stopping = false;
/** Answers being worked on, so that a stop lets them finish (bounded by DRAIN_MS). */
const inFlight = new Set();
const app = publicPages ? (req, res) => publicPages(req, res, () => memberPages(req, res, () => server(req, res))) : server;
function handler(req, res) {
  if (stopping) res.shouldKeepAlive = false;
  inFlight.add(res);
  res.on("close", () => {
    inFlight.delete(res);
    // Its connection is idle now: while stopping, close it rather than keep it for another request.
    if (stopping) setImmediate(() => listener.closeIdleConnections?.());
  });
  return app(req, res);
}
const listener = http.createServer(handler).listen(PORT, HOST, () => {
  const address = listener.address();
  const port = typeof address === "object" && address ? address.port : PORT;
  const shownHost = HOST === "0.0.0.0" || HOST === "::" ? "localhost" : HOST;
  console.log(`Everlight is listening on http://${shownHost}:${port}`);
});

/** How long requests in flight may take to finish once a stop signal came (STOP_GRACE_MS, checked by env.server.ts). */
const DRAIN_MS = Number(process.env.STOP_GRACE_MS?.trim() || 10_000);

// Ctrl-C or a stop signal (issue 25 §4): stop accepting connections, close the idle keep-alive ones,
// let the requests in flight finish (their answers close their connections), for at most DRAIN_MS; then
// stop the workers and close the database, so the embedded one is flushed and the next start finds it intact.
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal} received: shutting down…`);
  const closed = new Promise((resolve) => listener.close(() => resolve(true)));
  listener.closeIdleConnections?.();
  for (const res of inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
  let timer;
  const drained = await Promise.race([closed, new Promise((resolve) => (timer = setTimeout(() => resolve(false), DRAIN_MS)))]);
  clearTimeout(timer);
  if (!drained) {
    console.warn(`${inFlight.size} request(s) still running after ${DRAIN_MS / 1000} s: closing their connections.`);
    listener.closeAllConnections?.();
  }
  const force = setTimeout(() => process.exit(1), 10_000).unref();
  await serverApp.closeDatabase().catch((error) => console.error(error));
  clearTimeout(force);
  console.log("Stopped.");
  process.exit(0);
}
process.on("SIGINT", () => shutdown("SIGINT"));
process.on("SIGTERM", () => shutdown("SIGTERM"));

// Test harnesses set this so that a server they started never outlives them.
const parentPid = Number(process.env.STOP_WITH_PARENT_PID);
if (parentPid) {
  setInterval(() => {
    try {
      process.kill(parentPid, 0);
    } catch {
      shutdown("parent exited");
    }
  }, 1000).unref();
}
