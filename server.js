// Everlight's HTTP server: compression, static files with long-lived caching for hashed assets (sent
// from copies compressed at build time), and
// the React Router app. `npm start` builds and runs this; `npm run dev` runs it with Vite in watch mode.
// On PostgreSQL it runs one process per core (WORKERS), sharing the port through node:cluster: the
// primary process starts them, restarts one that dies, and stops them all on a stop signal.
import cluster from "node:cluster";
import { existsSync, readdirSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import process from "node:process";
import compression from "compression";
import express from "express";

const DEVELOPMENT = process.env.NODE_ENV === "development";
const PORT = Number.parseInt(process.env.PORT ?? "3000", 10);
const HOST = process.env.HOST ?? "0.0.0.0";
/**
 * In a cluster, what this worker process does (set by the primary below): "first" prepares the database
 * (migrations, demo data, the shared secret files) and runs the background jobs; "jobs" takes the jobs over
 * from a first that died; "serve" only answers requests. Unset: the only process, doing everything.
 */
const ROLE = cluster.isWorker ? process.env.EVERLIGHT_WORKER_ROLE : undefined;
/** How long requests in flight may take to finish once a stop signal came (STOP_GRACE_MS, checked by env.server.ts). */
const DRAIN_MS = Number(process.env.STOP_GRACE_MS?.trim() || 10_000);

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

/** Prints why the server could not start, and stops. */
async function refuseToStart(error, serverApp) {
  console.error(`\nEverlight could not start.\n${error instanceof Error ? error.message : error}\n`);
  await serverApp?.closeDatabase().catch(() => {});
  process.exit(1);
}

/** Watches the process that started this one (a test harness, or the cluster's primary): `stop` when it is gone. */
function stopWithParent(stop) {
  const parentPid = Number(process.env.STOP_WITH_PARENT_PID);
  if (!parentPid) return;
  setInterval(() => {
    try {
      process.kill(parentPid, 0);
    } catch {
      stop("parent exited");
    }
  }, 1000).unref();
}

function shownUrl(port) {
  const shownHost = HOST === "0.0.0.0" || HOST === "::" ? "localhost" : HOST;
  return `http://${shownHost}:${port}`;
}

// On PostgreSQL, unless WORKERS=1, this process becomes the cluster's primary: it loads nothing of the app
// (its first worker checks the configuration, and says how many workers to run). On the embedded
// database, in development, and with WORKERS=1 it is the one server process.
const clustered = cluster.isPrimary && !DEVELOPMENT && !!process.env.DATABASE_URL?.trim() && process.env.WORKERS?.trim() !== "1";
if (clustered) await runPrimary();
else await serve(DEVELOPMENT ? null : await import("./build/server/index.js"));

/**
 * The cluster's primary (PostgreSQL, WORKERS not 1): starts the first worker, which migrates the database and
 * loads the demo data, and once it listens the others; prints one "listening" line; restarts a worker that
 * dies (at most MAX_RESTARTS in RESTART_WINDOW_MS, then gives up and stops); on a stop signal sends every
 * worker SIGTERM, waits for their drains, and exits 0.
 */
async function runPrimary() {
  const MAX_RESTARTS = 5;
  const RESTART_WINDOW_MS = 60_000;
  /** Each worker's role, by worker id. */
  const roles = new Map();
  const restarts = [];
  let stopping = false;
  let exitCode = 0;
  let port;

  const fork = (role) => {
    // A worker stops when the primary is gone (killed with no chance to stop it), whoever started the primary.
    const worker = cluster.fork({ EVERLIGHT_WORKER_ROLE: role, STOP_WITH_PARENT_PID: String(process.pid) });
    roles.set(worker.id, role);
    return worker;
  };
  /** Resolves when the worker listens; rejects with its exit code when it ends before. */
  const listening = (worker) =>
    new Promise((resolve, reject) => {
      worker.once("listening", (address) => resolve(address));
      worker.once("exit", (code, signal) => reject(code ?? signal));
    });

  async function shutdown(signal, code = 0) {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    console.log(`\n${signal} received: shutting down…`);
    const workers = Object.values(cluster.workers ?? {});
    const ended = workers.map((worker) => new Promise((resolve) => (worker.isDead() ? resolve() : worker.once("exit", resolve))));
    for (const worker of workers) worker.process.kill("SIGTERM");
    // Each worker drains for at most DRAIN_MS and then closes its database (bounded by 10 s): past both, it is killed.
    const force = setTimeout(() => {
      console.warn("Some server processes did not stop in time: killing them.");
      for (const worker of Object.values(cluster.workers ?? {})) worker.process.kill("SIGKILL");
      exitCode = 1;
    }, DRAIN_MS + 15_000).unref();
    await Promise.all(ended);
    clearTimeout(force);
    console.log("Stopped.");
    process.exit(exitCode);
  }
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  stopWithParent(shutdown);

  cluster.on("exit", (worker, code, signal) => {
    const role = roles.get(worker.id);
    roles.delete(worker.id);
    if (stopping) {
      if (code !== 0) exitCode = 1;
      return;
    }
    if (port === undefined) return; // still starting: the start below stops
    const now = Date.now();
    restarts.push(now);
    while (restarts[0] <= now - RESTART_WINDOW_MS) restarts.shift();
    console.error(`A server process (pid ${worker.process.pid}) ended unexpectedly (${signal ?? `exit code ${code}`}).`);
    if (restarts.length > MAX_RESTARTS) {
      console.error(`Server processes ended ${restarts.length} times in ${RESTART_WINDOW_MS / 1000} s: stopping rather than restarting them again.`);
      void shutdown("too many restarts", 1);
      return;
    }
    // The one that ran the background jobs is replaced by one that runs them.
    fork(role === "serve" ? "serve" : "jobs");
  });

  try {
    const first = fork("first");
    const firstListening = listening(first);
    firstListening.catch(() => {}); // its end is taken below
    // The first worker checks the configuration, migrates, then says how many workers to run in all (WORKERS).
    const count = await new Promise((resolve, reject) => {
      first.on("message", (message) => typeof message?.workers === "number" && resolve(message.workers));
      first.once("exit", reject);
    });
    const [address] = await Promise.all([firstListening, ...Array.from({ length: count - 1 }, () => listening(fork("serve")))]);
    port = address.port;
    console.log(`Everlight is listening on ${shownUrl(port)} (${count} server process${count === 1 ? "" : "es"})`);
  } catch (code) {
    // The worker said why (a configuration error, the database unreachable…); the others are stopped.
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker.process.kill("SIGTERM");
    process.exitCode = typeof code === "number" && code !== 0 ? code : 1;
  }
}

/** One server process: the only one, or a worker of the cluster. */
async function serve(builtApp) {
  const server = express();
  server.disable("x-powered-by");
  server.use(compression());

  let serverApp = builtApp;
  /** How many processes to run (WORKERS): checks the whole configuration first, with a clear message. */
  let plan;
  try {
    if (serverApp) plan = serverApp.processPlan();
  } catch (error) {
    await refuseToStart(error);
  }
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
    plan ??= serverApp.processPlan();
    if (plan.warning && ROLE !== "serve" && ROLE !== "jobs") console.warn(`Warning: ${plan.warning}`);
    // The other workers of a cluster start once the first has migrated the database: they say nothing of it.
    const quiet = ROLE === "serve" || ROLE === "jobs";
    await serverApp.prepare(quiet ? () => {} : console.log, { jobs: ROLE !== "serve", seed: !quiet, sharedFiles: ROLE === "first" });
  } catch (error) {
    await refuseToStart(error, serverApp);
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
    // In a cluster the primary says it, once; the first worker tells it how many workers to start.
    if (ROLE === "first") process.send?.({ workers: plan.workers });
    if (ROLE) return;
    const address = listener.address();
    console.log(`Everlight is listening on ${shownUrl(typeof address === "object" && address ? address.port : PORT)}`);
  });

  // Ctrl-C or a stop signal: stop accepting connections, close the idle keep-alive ones,
  // let the requests in flight finish (their answers close their connections), for at most DRAIN_MS; then
  // stop the workers and close the database, so the embedded one is flushed and the next start finds it intact.
  async function shutdown(signal) {
    if (stopping) return;
    stopping = true;
    if (!ROLE) console.log(`\n${signal} received: shutting down…`);
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
    if (!ROLE) console.log("Stopped.");
    process.exit(0);
  }
  // In a cluster, Ctrl-C reaches every process of the terminal: the primary passes it on as SIGTERM.
  process.on("SIGINT", () => (ROLE ? undefined : shutdown("SIGINT")));
  process.on("SIGTERM", () => shutdown("SIGTERM"));

  // Test harnesses set this so that a server they started never outlives them (and the primary, for its workers).
  stopWithParent(shutdown);
}
