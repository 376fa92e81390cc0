// How much memory uploads take: six members post 240 MB each to /memorials/create at
// the same moment, and the server's resident memory (RSS, sampled every 50 ms from /proc) must move by
// under 200 MB. Two kinds of post: what a family sends (three videos, 95 + 95 + 50 MB, all stored), and
// what an attacker sends (one 240 MB file, cut off at the video limit and refused). Then the /api's
// base64 uploads: six parallel posts of the largest video the /api takes (99 MB, 132 MB of base64 in
// JSON) to POST /api/memorials/{id}/media, all stored. The built server on embedded PGlite, on
// 127.0.0.1. Run `npm run build`, then `npm run bench -- upload-memory`.
// Prints the figures and writes bench/results/upload-memory.json.
import { mkdirSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { registerBenchMember, rssMb, startBenchApp } from "./app-server";

const MB = 1024 * 1024;
const POSTS = 6;
const TARGET_MB = 200;
const BOUNDARY = "----everlight-bench";
const MP4_HEAD = new Uint8Array([0, 0, 0, 0x18, ...new TextEncoder().encode("ftypmp42"), 0, 0, 0, 0]);
/** One megabyte of a video, sent again and again: the test never holds a large file either. */
const CHUNK = new Uint8Array(MB).map((_, i) => (i * 31 + 7) % 251);

type Scenario = { name: string; files: number[]; expected: number; api?: boolean };
const SCENARIOS: Scenario[] = [
  { name: "a family's videos (95 + 95 + 50 MB, stored)", files: [95 * MB, 95 * MB, 50 * MB], expected: 303 },
  { name: "one 240 MB file (cut off at 100 MB, refused)", files: [240 * MB], expected: 413 },
  { name: "/api: one 99 MB video as base64 JSON (132 MB, stored)", files: [99 * MB], expected: 201, api: true },
];

/** A video as `{ mediaData: "data:video/mp4;base64,…" }` to the /api, sent chunked as it is generated. */
async function postApi(base: string, who: { cookie: string; ip: string }, bytes: number) {
  const memorial = await fetch(new URL("/api/memorials", base), {
    method: "POST",
    headers: { Cookie: who.cookie, "X-Forwarded-For": who.ip, "Content-Type": "application/json" },
    body: JSON.stringify({ firstName: "Bench", lastName: "Api", visibility: "private" }),
  });
  const { id } = (await memorial.json()) as { id: string };
  return new Promise<number>((resolve, reject) => {
    const req = http.request(new URL(`/api/memorials/${id}/media`, base), {
      method: "POST",
      agent: false,
      headers: { Cookie: who.cookie, "X-Forwarded-For": who.ip, "Content-Type": "application/json", "Transfer-Encoding": "chunked" },
    });
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    const write = async (text: string) => {
      if (!req.write(text)) await new Promise((r) => req.once("drain", r));
    };
    void (async () => {
      await write('{"fileName":"video.mp4","fileType":"video/mp4","mediaData":"data:video/mp4;base64,');
      // 3 MB at a time (a multiple of 3 bytes, so the pieces' base64 joins up).
      const piece = Buffer.concat([CHUNK, CHUNK, CHUNK]);
      for (let sent = 0; sent < bytes; sent += piece.length) {
        const chunk = Buffer.from(piece.subarray(0, Math.min(piece.length, bytes - sent)));
        if (sent === 0) chunk.set(MP4_HEAD);
        await write(chunk.toString("base64"));
      }
      await write('"}');
      req.end();
    })().catch(reject);
  });
}

/** One memorial form with `files` videos, sent chunked as it is generated. */
function post(base: string, who: { cookie: string; ip: string }, files: number[]) {
  return new Promise<number>((resolve, reject) => {
    const req = http.request(new URL("/memorials/create", base), {
      method: "POST",
      agent: false,
      headers: { Cookie: who.cookie, "X-Forwarded-For": who.ip, "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`, "Transfer-Encoding": "chunked" },
    });
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    const write = async (bytes: Uint8Array | string) => {
      if (!req.write(bytes)) await new Promise((r) => req.once("drain", r));
    };
    void (async () => {
      for (const [name, value] of [
        ["firstName", "Bench"],
        ["lastName", "Upload"],
        ["visibility", "private"],
        ["category", "individual"],
        ["intent", "draft"],
      ]) {
        await write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
      }
      for (const [index, bytes] of files.entries()) {
        await write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="media"; filename="video-${index}.mp4"\r\nContent-Type: video/mp4\r\n\r\n`);
        for (let sent = 0; sent < bytes; sent += MB) {
          const chunk = CHUNK.subarray(0, Math.min(MB, bytes - sent));
          if (sent === 0) await write(Uint8Array.from([...MP4_HEAD, ...chunk.subarray(MP4_HEAD.length)]));
          else await write(chunk);
        }
        await write("\r\n");
      }
      await write(`--${BOUNDARY}--\r\n`);
      req.end();
    })().catch(reject);
  });
}

const app = await startBenchApp();
const results: { scenario: string; posts: number; mbEach: number; statuses: number[]; baselineMb: number; peakMb: number; movedMb: number; seconds: number }[] =
  [];
try {
  for (const scenario of SCENARIOS) {
    const members = await Promise.all(Array.from({ length: POSTS }, () => registerBenchMember(app.url)));
    // The server settles after registering (scrypt) before the baseline is taken.
    await new Promise((r) => setTimeout(r, 2000));
    const baselineMb = rssMb(app.pid);
    let peakMb = baselineMb;
    const sampler = setInterval(() => (peakMb = Math.max(peakMb, rssMb(app.pid))), 50);
    const started = performance.now();
    const statuses = await Promise.all(members.map((who) => (scenario.api ? postApi(app.url, who, scenario.files[0]) : post(app.url, who, scenario.files))));
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peakMb = Math.max(peakMb, rssMb(app.pid));
    const movedMb = peakMb - baselineMb;
    results.push({
      scenario: scenario.name,
      posts: POSTS,
      mbEach: scenario.files.reduce((a, b) => a + b, 0) / MB,
      statuses,
      baselineMb,
      peakMb,
      movedMb,
      seconds,
    });
    const ok = statuses.every((s) => s === scenario.expected);
    console.log(
      `${scenario.name}: ${POSTS} parallel posts in ${seconds.toFixed(1)} s, answered ${statuses.join(", ")}${ok ? "" : ` (expected ${scenario.expected})`}; ` +
        `RSS ${baselineMb.toFixed(0)} → peak ${peakMb.toFixed(0)} MB, moved ${movedMb.toFixed(0)} MB (target < ${TARGET_MB} MB) ${movedMb < TARGET_MB && ok ? "✓" : "✗"}`,
    );
  }
} finally {
  await app.stop();
}
mkdirSync(path.join("bench", "results"), { recursive: true });
writeFileSync(path.join("bench", "results", "upload-memory.json"), JSON.stringify({ at: new Date().toISOString(), targetMb: TARGET_MB, results }, null, 2));
if (results.some((r) => r.movedMb >= TARGET_MB)) process.exitCode = 1;
