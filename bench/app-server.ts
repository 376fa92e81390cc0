import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

// The built production server for a benchmark: on embedded PGlite in a temporary data folder, on
// 127.0.0.1, without demo data, outside services or a developer's keys, stopped with the benchmark.
// TRUST_PROXY is on, so each simulated visitor can come from an address of its own (X-Forwarded-For).

export type BenchApp = { url: string; pid: number; stop: () => Promise<void> };

export async function startBenchApp(env: Record<string, string> = {}): Promise<BenchApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "everlight-bench-app-"));
  // BENCH_CPU_PROFILE=<folder>: the server writes a V8 CPU profile there when it stops (for where the time goes).
  const profile = process.env.BENCH_CPU_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROFILE)}`] : [];
  const child = spawn(process.execPath, [...profile, "server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      SEED_DEMO_DATA: "false",
      SESSION_COOKIE_SECURE: "false",
      SESSION_SECRET: randomBytes(32).toString("base64url"),
      TRUST_PROXY: "true",
      OPENAI_API_KEY: "",
      SMTP_URL: "",
      PAYMENT_PROVIDER: "",
      BACKUP_SCHEDULE: "off",
      STOP_WITH_PARENT_PID: String(process.pid),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`The app did not start in 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`The app exited with ${code}:\n${output}`)));
  });
  return { url, pid: child.pid!, stop: () => stop(child).then(() => rmSync(dataDir, { recursive: true, force: true })) };
}

/** Stops a child process with SIGTERM, and SIGKILL if it has not exited 15 s later. */
export async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const force = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(force);
}

/** A made-up client address, 10.x.y.z. */
export function randomIp() {
  return `10.${[0, 0, 0].map(() => randomBytes(1)[0]).join(".")}`;
}

/** A new member registered through the /api: their email, session cookie and address. */
export async function registerBenchMember(base: string) {
  const ip = randomIp();
  const email = `bench-${randomBytes(5).toString("hex")}@example.test`;
  const res = await fetch(`${base}/api/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": ip },
    body: JSON.stringify({ firstName: "Bench", lastName: "Member", email, password: "Correct1horse" }),
  });
  if (res.status !== 201) throw new Error(`Registering answered ${res.status}: ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  return { email, cookie, ip };
}

/** A process's resident memory in MB, from /proc. */
export function rssMb(pid: number) {
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN);
  return kb / 1024;
}
