import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

// A throw-away PostgreSQL cluster for tests: initdb into a temp
// folder, start on a free port on 127.0.0.1, stop and delete afterwards. initdb refuses to run as
// root, so as root the cluster runs as `nobody`.

export type Cluster = { url: string; stop: () => void };

function findBinary(name: string): string | undefined {
  const which = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
  if (which.status === 0 && which.stdout.trim()) return which.stdout.trim();
  const debian = ["17", "16", "15", "14", "13"].map((v) => `/usr/lib/postgresql/${v}/bin/${name}`).find(existsSync);
  return debian;
}

export function findPostgresBinaries(): { initdb: string; pgCtl: string } | { missing: string } {
  const initdb = findBinary("initdb");
  const pgCtl = findBinary("pg_ctl");
  if (!initdb || !pgCtl) return { missing: "initdb/pg_ctl not found on PATH or under /usr/lib/postgresql" };
  return { initdb, pgCtl };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      srv.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

export async function startCluster(): Promise<Cluster> {
  const bins = findPostgresBinaries();
  if ("missing" in bins) throw new Error(bins.missing);
  const dir = mkdtempSync(path.join(tmpdir(), "everlight-pg-"));
  chmodSync(dir, 0o777);
  const dataDir = path.join(dir, "data");
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) => {
    if (asRoot) {
      const quoted = [cmd, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
      execFileSync("runuser", ["-u", "nobody", "--", "sh", "-c", quoted], { stdio: "pipe", cwd: dir });
    } else {
      execFileSync(cmd, args, { stdio: "pipe", cwd: dir });
    }
  };
  run(bins.initdb, ["-D", dataDir, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--no-sync", "--no-instructions"]);
  run(bins.pgCtl, [
    "-D",
    dataDir,
    "-l",
    path.join(dir, "server.log"),
    "-w",
    "-t",
    "30",
    "-o",
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`,
    "start",
  ]);
  let stopped = false;
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      if (stopped) return;
      stopped = true;
      try {
        run(bins.pgCtl, ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
