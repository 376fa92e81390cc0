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

const ASSET_TYPES = { ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml", ".json": "application/json; charset=utf-8" };

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
/** The anonymous page cache (server/page-cache.ts), answering kept pages before Express sees them. */
let publicPages = null;
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

const handler = publicPages ? (req, res) => publicPages(req, res, () => server(req, res)) : server;
const listener = http.createServer(handler).listen(PORT, HOST, () => {
  const address = listener.address();
  const port = typeof address === "object" && address ? address.port : PORT;
  const shownHost = HOST === "0.0.0.0" || HOST === "::" ? "localhost" : HOST;
  console.log(`Everlight is listening on http://${shownHost}:${port}`);
});

// Ctrl-C or a stop signal: stop taking requests, then close the database so the embedded one is
// flushed to disk and the next start finds it intact.
let stopping = false;
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal} received: shutting down…`);
  const force = setTimeout(() => process.exit(1), 10_000).unref();
  listener.close();
  listener.closeAllConnections?.();
  await serverApp.closeDatabase().catch((error) => console.error(error));
  clearTimeout(force);
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
