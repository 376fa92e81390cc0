import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DataFolderInUseError, holdDataFolder, LOCK_FILE, lockHolderOf } from "./data-lock.server";

// One process per embedded data folder: the lock's own rules (test/backups.test.ts starts real servers).

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
const folder = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "everlight-lock-"));
  folders.push(dir);
  return dir;
};

/** The pid of a process that has ended. */
function deadPid() {
  return spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout.trim();
}

describe("the data folder's lock", () => {
  it("is held by one process: a second taker is refused with who holds it; released, it can be taken again", () => {
    const dir = folder();
    const lock = holdDataFolder(dir, "npm start");
    expect(lockHolderOf(dir)).toMatchObject({ pid: process.pid, command: "npm start" });
    let refusal: unknown;
    try {
      holdDataFolder(dir, "npm run dev");
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DataFolderInUseError);
    expect((refusal as Error).message).toContain(`in use by another Everlight process (pid ${process.pid} on ${hostname()}, "npm start"`);
    lock.release();
    expect(existsSync(path.join(dir, LOCK_FILE))).toBe(false);
    expect(lockHolderOf(dir)).toBeNull();
    holdDataFolder(dir).release();
  });

  it("left by a process that died, or by a pid now used by another process, is taken over", () => {
    const dir = folder();
    const file = path.join(dir, LOCK_FILE);
    writeFileSync(file, JSON.stringify({ pid: Number(deadPid()), host: hostname(), startTicks: null, startedAt: "2026-01-01T00:00:00Z", command: "crashed" }));
    expect(lockHolderOf(dir)).toBeNull();
    const lock = holdDataFolder(dir);
    expect(JSON.parse(readFileSync(file, "utf8")).pid).toBe(process.pid);
    lock.release();
    // Our own pid, but a process started at another moment: a reused pid, not the holder.
    writeFileSync(file, JSON.stringify({ pid: process.pid, host: hostname(), startTicks: "1", startedAt: "2026-01-01T00:00:00Z", command: "long gone" }));
    holdDataFolder(dir).release();
  });

  it("held by a process on another machine (a shared disk) is never taken over", () => {
    const dir = folder();
    writeFileSync(
      path.join(dir, LOCK_FILE),
      JSON.stringify({ pid: 1, host: "another-machine", startTicks: null, startedAt: "2026-01-01T00:00:00Z", command: "npm start" }),
    );
    expect(() => holdDataFolder(dir)).toThrow(/pid 1 on another-machine/);
  });

  it("says where a running server takes jobs, and a lock that is not its own is never removed on release", () => {
    const dir = folder();
    const lock = holdDataFolder(dir);
    lock.announceControl({ port: 4321, token: "t" });
    expect(lockHolderOf(dir)?.control).toEqual({ port: 4321, token: "t" });
    writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: 1, host: "elsewhere", startTicks: null, startedAt: "", command: "other" }));
    lock.release();
    expect(existsSync(path.join(dir, LOCK_FILE))).toBe(true);
  });
});
