// The memorial page on a slow phone. Builds the app (BENCH_NO_BUILD=1 skips it), starts the production server on a temp data folder
// on 127.0.0.1, creates a realistic public memorial through the normal upload path (a portrait and 12
// phone-camera JPEGs, a 1,500-word biography, 20 approved tributes), then measures as an anonymous
// visitor:
//   1. page weight in Chromium with a phone's screen, JavaScript on and off, and whether the page is
//      readable without JavaScript;
//   2. Lighthouse, mobile profile, 3 runs, each figure's median, on that memorial and on a short one (a
//      few lines, two tributes: its tribute form is within reach as the page opens);
//   3. throughput with autocannon (32 connections, 20 s) on the memorial, landing, browse and shop
//      (/products, the demo products) pages.
// Prints each figure beside its budget with PASS or MISS, and writes bench/results/memorial-page.json.
// Run: `npm run bench -- memorial-page`. Not part of `npm test`. BENCH_SERVE=1 only sets up the server
// and the memorial and keeps them until ^C, for a closer look.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import autocannon from "autocannon";
import sharp from "sharp";
import { CHROME_FLAGS, median, runLighthouse, type LighthouseRun } from "./lighthouse";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const DURATION = Number(process.env.BENCH_DURATION ?? 20);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 3);
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);

// ───────────────────────────── the server ─────────────────────────────

type Server = { url: string; stop: () => Promise<void> };

async function startServer(): Promise<Server> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "everlight-bench-"));
  const child: ChildProcess = spawn(process.execPath, ["server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      SEED_DEMO_DATA: "true",
      BACKUP_SCHEDULE: "off",
      SESSION_COOKIE_SECURE: "false",
      SESSION_SECRET: randomBytes(32).toString("base64url"),
      TRUST_PROXY: "true",
      OPENAI_API_KEY: "",
      // The shop with the built-in test provider, whatever a developer's own environment says.
      PAYMENT_PROVIDER: "",
      STRIPE_SECRET_KEY: "",
      STRIPE_PUBLISHABLE_KEY: "",
      STRIPE_WEBHOOK_SECRET: "",
      STOP_WITH_PARENT_PID: String(process.pid),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The server did not start in 120 s:\n${output}`)), 120_000);
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
    child.on("exit", (code) => reject(new Error(`The server exited with ${code}:\n${output}`)));
  });
  return {
    url,
    stop: async () => {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A tiny JSON client that keeps one cookie jar and claims its own address (per-address limits). */
function apiClient(base: string, ip = `10.9.${randomBytes(1)[0]}.${randomBytes(1)[0]}`) {
  let cookie = "";
  return async function call<T = any>(method: string, pathname: string, body?: unknown): Promise<T> {
    const response = await fetch(new URL(pathname, base), {
      method,
      headers: { "Content-Type": "application/json", Origin: base, "X-Forwarded-For": ip, ...(cookie ? { Cookie: cookie } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const set = response.headers.getSetCookie().map((c) => c.split(";")[0]);
    if (set.length) cookie = set.join("; ");
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status} ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : null) as T;
  };
}

// ───────────────────────────── the memorial ─────────────────────────────

/** A phone-camera-sized JPEG (4032×3024): a soft gradient with grain, 2–4 MB like a real photo. */
async function phonePhoto(seed: number): Promise<Buffer> {
  const width = 4032;
  const height = 3024;
  const small = Buffer.alloc(252 * 189 * 3);
  for (let y = 0; y < 189; y++) {
    for (let x = 0; x < 252; x++) {
      const i = (y * 252 + x) * 3;
      small[i] = (x + seed * 40) % 256;
      small[i + 1] = (y * 1.3 + seed * 25) % 256;
      small[i + 2] = ((x + y) / 2 + seed * 60) % 256;
    }
  }
  const base = await sharp(small, { raw: { width: 252, height: 189, channels: 3 } })
    .resize(width, height, { kernel: "cubic" })
    .raw()
    .toBuffer();
  for (let i = 0; i < base.length; i += 1) base[i] = Math.max(0, Math.min(255, base[i] + ((Math.random() * 36) | 0) - 18));
  return sharp(base, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 88 })
    .toBuffer();
}

const dataUrl = (jpeg: Buffer) => `data:image/jpeg;base64,${jpeg.toString("base64")}`;

const WORDS =
  "She grew up above her parents' bakery in Whitby, where the smell of bread and the sound of the harbour bells filled every morning. At fourteen she left school to help in the shop, and at twenty she married Tom, a fisherman with a quiet smile and a love of brass bands. Together they raised four children in a small stone house on Church Street, and later welcomed nine grandchildren who remember her kitchen as the warmest room in the world.".split(
    " ",
  );

function biography(words: number) {
  const out: string[] = [];
  for (let i = 0; out.length < words; i++) out.push(WORDS[i % WORDS.length]);
  // Paragraphs of about 120 words, as a family would write them.
  return out
    .map((w, i) => (i > 0 && i % 120 === 0 ? `\n\n${w}` : w))
    .join(" ")
    .replace(/ \n\n/g, "\n\n");
}

/** An /api client signed in as a new member, who will own a memorial. */
async function registeredOwner(base: string, lastName: string) {
  const owner = apiClient(base);
  await owner("POST", "/api/auth/register", {
    firstName: "Bench",
    lastName,
    email: `bench-${randomBytes(4).toString("hex")}@example.test`,
    password: "Bench-Owner-123",
  });
  return owner;
}

async function createMemorial(base: string) {
  const owner = await registeredOwner(base, "Owner");
  const memorial = await owner<{ id: string }>("POST", "/api/memorials", {
    firstName: "Margaret",
    lastName: "Ellison",
    title: "Baker, mother, friend of the harbour",
    dateOfBirth: "1938-05-14",
    dateOfPassing: "2025-11-02",
    biography: biography(1500),
    visibility: "public",
    isPublished: true,
  });
  process.stdout.write("Uploading a portrait and 12 phone photos");
  await owner("POST", `/api/memorials/${memorial.id}/profile-image`, {
    imageData: dataUrl(await phonePhoto(0)),
    fileName: "portrait.jpg",
    fileType: "image/jpeg",
  });
  let uploaded = 0;
  for (let i = 1; i <= 12; i++) {
    const jpeg = await phonePhoto(i);
    uploaded += jpeg.length;
    await owner("POST", `/api/memorials/${memorial.id}/media`, {
      mediaData: dataUrl(jpeg),
      fileName: `IMG_${4000 + i}.jpg`,
      fileType: "image/jpeg",
      order: i - 1,
    });
    process.stdout.write(".");
  }
  console.log(` ${(uploaded / 1024 / 1024).toFixed(1)} MB of photos.`);
  for (let i = 0; i < 20; i++) {
    // Each visitor from an address of their own (the per-address tribute limit is 10 per 10 minutes).
    const visitor = apiClient(base, `10.8.0.${i + 1}`);
    const tribute = await visitor<{ id: string }>("POST", `/api/memorials/${memorial.id}/tributes`, {
      authorName: `Visitor ${i + 1}`,
      content: `I will always remember Margaret's kindness at the bakery, and the way she knew every child's name. Thinking of the family today. (${i + 1})`,
    });
    await owner("PUT", `/api/tributes/${tribute.id}/approve`);
  }
  return memorial.id;
}

/** A short memorial: a line of biography and two tributes, so the whole page, form included, is near. */
async function createShortMemorial(base: string) {
  const owner = await registeredOwner(base, "Neighbour");
  const memorial = await owner<{ id: string }>("POST", "/api/memorials", {
    firstName: "Ivy",
    lastName: "Penrose",
    dateOfBirth: "1941-03-09",
    dateOfPassing: "2025-10-20",
    biography: "Ivy kept the corner shop for forty years and never forgot a birthday.",
    visibility: "public",
    isPublished: true,
  });
  for (let i = 0; i < 2; i++) {
    const visitor = apiClient(base, `10.9.0.${i + 1}`);
    const tribute = await visitor<{ id: string }>("POST", `/api/memorials/${memorial.id}/tributes`, {
      authorName: `Neighbour ${i + 1}`,
      content: "She always had a kind word and a toffee for the children.",
    });
    await owner("PUT", `/api/tributes/${tribute.id}/approve`);
  }
  return memorial.id;
}

// ───────────────────────────── 1. page weight ─────────────────────────────

type Weight = { html: number; css: number; js: number; fonts: number; images: number; other: number; requests: number; total: number };

/** After the first tap, at 4× CPU: time until hydrated, and the long tasks on the way (not a budget figure). */
type FirstUse = { scriptsBeforeUseBytes: number; hydrationMs: number; longestTaskMs: number; blockingMs: number };

async function measureWeight(url: string, javaScriptEnabled: boolean) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROME_FLAGS.filter((f) => !f.startsWith("--headless")) });
  try {
    const context = await browser.newContext({
      javaScriptEnabled,
      viewport: { width: 412, height: 823 },
      deviceScaleFactor: 1.75,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    const weight: Weight = { html: 0, css: 0, js: 0, fonts: 0, images: 0, other: 0, requests: 0, total: 0 };
    const pending: Promise<void>[] = [];
    page.on("requestfinished", (request) => {
      pending.push(
        request.sizes().then((sizes) => {
          const bytes = sizes.responseBodySize + sizes.responseHeadersSize;
          const type = request.resourceType();
          const key =
            type === "document"
              ? "html"
              : type === "stylesheet"
                ? "css"
                : type === "script"
                  ? "js"
                  : type === "font"
                    ? "fonts"
                    : type === "image"
                      ? "images"
                      : "other";
          weight[key] += bytes;
          weight.requests += 1;
          weight.total += bytes;
        }),
      );
    });
    // A slow phone's CPU (4×, as Lighthouse's mobile profile), and the long tasks it sees.
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    await page.addInitScript(() => {
      const w = window as unknown as { longTasks: [number, number][] };
      w.longTasks = [];
      new PerformanceObserver((list) => list.getEntries().forEach((e) => w.longTasks.push([e.startTime, e.duration]))).observe({
        type: "longtask",
        buffered: true,
      });
    });
    await page.goto(url, { waitUntil: "load" });
    await page.waitForLoadState("networkidle");
    let firstUse: FirstUse | null = null;
    if (javaScriptEnabled) {
      // The scripts wait for the visitor's first use of the page (app/request/hydrate-on-use.server.ts):
      // with JavaScript on, the weight is that of the first view and the first tap.
      const scriptsBeforeUse = weight.js;
      const tappedAt = await page.evaluate(() => performance.now());
      await page.locator("h1").tap();
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true", null, { timeout: 60_000 });
      await page.waitForLoadState("networkidle");
      const hydratedAt = await page.evaluate(() => performance.now());
      const tasks = await page.evaluate(() => (window as unknown as { longTasks: [number, number][] }).longTasks);
      const after = tasks.filter(([start]) => start >= tappedAt);
      firstUse = {
        scriptsBeforeUseBytes: scriptsBeforeUse,
        hydrationMs: Math.round(hydratedAt - tappedAt),
        longestTaskMs: Math.round(Math.max(0, ...after.map(([, d]) => d))),
        blockingMs: Math.round(after.reduce((sum, [, d]) => sum + Math.max(0, d - 50), 0)),
      };
    }
    await Promise.all(pending);
    const readable = javaScriptEnabled ? null : await readableWithoutJavaScript(page);
    await context.close();
    return { weight, readable, firstUse };
  } finally {
    await browser.close();
  }
}

async function readableWithoutJavaScript(page: Page) {
  const name = (await page.locator("h1").innerText()).includes("Margaret Ellison");
  const biographyShown = (await page.locator("section[aria-labelledby='biography-heading'] p").count()) >= 10;
  const photos = await page.locator("img[alt^='Photo']").count();
  const tributes = await page.getByText(/I will always remember Margaret's kindness/).count();
  return { name, biography: biographyShown, photos, tributes, ok: name && biographyShown && photos >= 12 && tributes >= 10 };
}

/** The HTML document's size as sent: raw, and compressed as a phone asks for it. */
function documentBytes(url: string, encoding: string | null) {
  return new Promise<number>((resolve, reject) => {
    const request = http.get(url, { headers: encoding ? { "Accept-Encoding": encoding } : {} }, (response) => {
      let size = 0;
      response.on("data", (chunk: Buffer) => (size += chunk.length));
      response.on("end", () => resolve(size));
    });
    request.on("error", reject);
  });
}

// ───────────────────────────── 2. Lighthouse ─────────────────────────────

// runLighthouse and median: bench/lighthouse.ts.

// ───────────────────────────── 3. throughput ─────────────────────────────

async function throughput(url: string) {
  const headers = { "accept-encoding": "br, gzip" };
  // A warm-up first, as a server in service is: JIT-compiled code, caches filled. Not counted.
  await autocannon({ url, connections: 32, duration: WARM_UP, headers });
  const result = await autocannon({ url, connections: 32, duration: DURATION, headers });
  return {
    path: new URL(url).pathname,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

// ───────────────────────────── report ─────────────────────────────

type Check = { figure: string; value: string; target: string; pass: boolean };

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function main() {
  if (process.env.BENCH_NO_BUILD !== "1") {
    console.log("Building the app…");
    const build = spawnSync("npm", ["run", "build"], { stdio: "ignore" });
    if (build.status !== 0) throw new Error("The build failed: run `npm run build` to see why.");
  }
  const server = await startServer();
  try {
    const id = await createMemorial(server.url);
    const pageUrl = `${server.url}/memorials/${id}`;
    const shortUrl = `${server.url}/memorials/${await createShortMemorial(server.url)}`;
    if (process.env.BENCH_SERVE === "1") {
      // For a closer look (a profiler, Lighthouse by hand): keep the server and its memorial until ^C.
      console.log(`Serving ${pageUrl} until interrupted`);
      await new Promise((resolve) => process.once("SIGINT", resolve));
      return;
    }
    console.log(`Measuring ${pageUrl}`);

    const htmlRaw = await documentBytes(pageUrl, null);
    const htmlCompressed = await documentBytes(pageUrl, "br, gzip");
    const withJs = await measureWeight(pageUrl, true);
    const withoutJs = await measureWeight(pageUrl, false);

    const runs: LighthouseRun[] = [];
    for (let i = 0; i < LIGHTHOUSE_RUNS; i++) runs.push(await runLighthouse(pageUrl, "bench/results/memorial-page.lighthouse.json"));
    const lh = median(runs);
    const shortRuns: LighthouseRun[] = [];
    for (let i = 0; i < LIGHTHOUSE_RUNS; i++) shortRuns.push(await runLighthouse(shortUrl, "bench/results/memorial-page-short.lighthouse.json"));
    const shortLh = median(shortRuns);
    const scriptsBeforeUse = withJs.firstUse?.scriptsBeforeUseBytes ?? Number.NaN;

    const load = [];
    for (const url of [pageUrl, `${server.url}/`, `${server.url}/memorials`, `${server.url}/products`]) load.push(await throughput(url));
    const page = load[0];

    const checks: Check[] = [
      { figure: "Lighthouse performance (mobile)", value: String(lh.performance), target: "≥ 95", pass: lh.performance >= 95 },
      { figure: "Largest Contentful Paint", value: `${(lh.lcpMs / 1000).toFixed(2)} s`, target: "≤ 1.5 s", pass: lh.lcpMs <= 1500 },
      { figure: "Total Blocking Time", value: `${lh.tbtMs} ms`, target: "≤ 100 ms", pass: lh.tbtMs <= 100 },
      { figure: "Cumulative Layout Shift", value: String(lh.cls), target: "≤ 0.02", pass: lh.cls <= 0.02 },
      { figure: "Short memorial: Lighthouse performance", value: String(shortLh.performance), target: "100", pass: shortLh.performance === 100 },
      { figure: "Short memorial: Total Blocking Time", value: `${shortLh.tbtMs} ms`, target: "≤ 200 ms", pass: shortLh.tbtMs <= 200 },
      { figure: "Scripts before the first use, compressed", value: kb(scriptsBeforeUse), target: "≤ 60 KB", pass: scriptsBeforeUse <= 60 * 1024 },
      { figure: "Lighthouse accessibility", value: String(lh.accessibility), target: "100", pass: lh.accessibility === 100 },
      { figure: "HTML, compressed", value: kb(htmlCompressed), target: "≤ 40 KB", pass: htmlCompressed <= 40 * 1024 },
      { figure: "JavaScript, compressed", value: kb(withJs.weight.js), target: "≤ 130 KB", pass: withJs.weight.js <= 130 * 1024 },
      { figure: "Web fonts", value: kb(withJs.weight.fonts), target: "none, or < 30 KB", pass: withJs.weight.fonts < 30 * 1024 },
      { figure: "Total transfer, first view", value: kb(withJs.weight.total), target: "≤ 500 KB", pass: withJs.weight.total <= 500 * 1024 },
      {
        figure: "Readable without JavaScript",
        value: withoutJs.readable?.ok ? "yes" : `no ${JSON.stringify(withoutJs.readable)}`,
        target: "yes",
        pass: !!withoutJs.readable?.ok,
      },
      { figure: "Memorial page requests/s (32 connections)", value: String(page.requestsPerSecond), target: "≥ 400", pass: page.requestsPerSecond >= 400 },
      { figure: "Memorial page p99 latency", value: `${page.p99Ms} ms`, target: "≤ 150 ms", pass: page.p99Ms <= 150 },
      { figure: "Memorial page errors", value: String(page.errors + page.non2xx), target: "0", pass: page.errors + page.non2xx === 0 },
      { figure: "Shop (/products) errors", value: String(load[3].errors + load[3].non2xx), target: "0", pass: load[3].errors + load[3].non2xx === 0 },
    ];

    console.log("\nPage weight for an anonymous visitor (phone screen):");
    console.table({ "JavaScript on": withJs.weight, "JavaScript off": withoutJs.weight });
    console.log(`HTML document: ${kb(htmlRaw)} raw, ${kb(htmlCompressed)} compressed.`);
    console.log("JavaScript on: the first view, then a first tap, which brings the page's scripts.");
    if (withJs.firstUse) {
      const f = withJs.firstUse;
      console.log(
        `Before the first tap: ${kb(f.scriptsBeforeUseBytes)} of scripts. After it, at 4× CPU: hydrated in ${f.hydrationMs} ms, longest task ${f.longestTaskMs} ms, blocking time ${f.blockingMs} ms.`,
      );
    }
    console.log(`\nLighthouse, mobile profile, ${runs.length} runs (each figure's median is used):`);
    console.table(runs);
    console.log(`\nLighthouse on the short memorial, ${shortRuns.length} runs:`);
    console.table(shortRuns);
    console.log(`\nThroughput, 32 connections for ${DURATION} s, compression on:`);
    console.table(load);
    console.log("\nBudget:");
    console.table(checks.map((c) => ({ figure: c.figure, value: c.value, target: c.target, result: c.pass ? "PASS" : "MISS" })));

    const report = {
      takenAt: new Date().toISOString(),
      machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, node: process.version, chromium: CHROMIUM },
      page: {
        htmlRawBytes: htmlRaw,
        htmlCompressedBytes: htmlCompressed,
        withJavaScript: withJs.weight,
        withoutJavaScript: withoutJs.weight,
        readableWithoutJavaScript: withoutJs.readable,
        firstUse: withJs.firstUse,
      },
      lighthouse: { median: lh, runs, short: { median: shortLh, runs: shortRuns } },
      throughput: load,
      budget: checks,
    };
    mkdirSync("bench/results", { recursive: true });
    writeFileSync("bench/results/memorial-page.json", `${JSON.stringify(report, null, 2)}\n`);
    console.log("Written to bench/results/memorial-page.json");
    const misses = checks.filter((c) => !c.pass).length;
    console.log(misses ? `${misses} of ${checks.length} budget figures missed.` : `All ${checks.length} budget figures met.`);
  } finally {
    await server.stop();
  }
}

await main();
