import { hostname } from "node:os";
import { closeSync, linkSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import path from "node:path";

// The embedded database is a folder of files that exactly one process may open: PGlite keeps pages in
// memory and writes them back as it likes, so two processes on one folder each overwrite what the other
// wrote, and acknowledged writes disappear at the next start. The process that opens it (the server, a
// migration, a backup, a job run) first takes this lock: a file in DATA_DIR, created only if absent,
// naming the process. A second process finds it, sees its holder alive, and stops with a message saying
// who holds it. A lock whose holder is gone (killed, crashed, the machine restarted) is taken over.

export const LOCK_FILE = "everlight.lock";

/** What a lock file says of its holder; `control` is where a running server takes jobs (server/control.ts). */
export type LockHolder = {
  pid: number;
  host: string;
  /** The process's start as the kernel counts it (Linux), so a reused pid is not taken for the holder. */
  startTicks: string | null;
  startedAt: string;
  command: string;
  control?: { port: number; token: string };
};

export class DataFolderInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `The data folder ${dataDir} is in use by another Everlight process (pid ${holder.pid} on ${holder.host}, ` +
        `"${holder.command}", since ${holder.startedAt}).\n` +
        `Only one process may open the embedded database: a second one would lose what the first writes.\n` +
        `Stop that process first (or use it: \`npm run backup\` and \`npm run jobs\` go through a running server), ` +
        `or give this one another DATA_DIR. To run several servers, use PostgreSQL (DATABASE_URL).`,
    );
    this.name = "DataFolderInUseError";
  }
}

export type DataFolderLock = {
  readonly file: string;
  readonly holder: LockHolder;
  /** Says where this process takes jobs (a running server), for the commands that go through it. */
  announceControl(control: { port: number; token: string }): void;
  release(): void;
};

function startTicksOf(pid: number): string | null {
  try {
    // Field 22 of /proc/<pid>/stat, counted after the command name (which may hold spaces and parentheses).
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

function readHolder(file: string): LockHolder | null {
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as LockHolder;
    return typeof parsed.pid === "number" ? parsed : null;
  } catch {
    return null;
  }
}

/** Whether the process a lock names still runs: on this machine, the same pid started at the same moment. */
export function holderAlive(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true; // another machine's process (a shared disk): cannot tell, so assume so
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const ticks = startTicksOf(holder.pid);
  return !(holder.startTicks && ticks && ticks !== holder.startTicks);
}

/** The live holder of `dataDir`'s lock, if any (the commands that go through a running server ask this). */
export function lockHolderOf(dataDir: string): LockHolder | null {
  const holder = readHolder(path.join(dataDir, LOCK_FILE));
  return holder && holderAlive(holder) ? holder : null;
}

function writeLock(file: string, holder: LockHolder): boolean {
  let fd: number;
  try {
    fd = openSync(file, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    writeSync(fd, JSON.stringify(holder));
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Takes `dataDir`'s lock for this process, or throws DataFolderInUseError naming the live holder. A lock left
 * by a process that is gone is moved aside (one rename: of two processes taking it over at once, one wins)
 * and taken. The lock file is removed by `release` and, at the latest, when this process exits.
 */
export function holdDataFolder(dataDir: string, command = process.argv.slice(1).join(" ")): DataFolderLock {
  const file = path.join(dataDir, LOCK_FILE);
  const holder: LockHolder = {
    pid: process.pid,
    host: hostname(),
    startTicks: startTicksOf(process.pid),
    startedAt: new Date().toISOString(),
    command: command.slice(0, 200) || "node",
  };
  for (let attempt = 0; !writeLock(file, holder); attempt++) {
    const current = readHolder(file);
    if (current && holderAlive(current)) throw new DataFolderInUseError(dataDir, current);
    // Unreadable (a write cut short) or its holder is gone. Written a moment ago by a process still
    // writing it: the next attempt reads it whole.
    if (attempt >= 3) throw new DataFolderInUseError(dataDir, current ?? { ...holder, pid: 0, command: "unknown (unreadable lock file)" });
    const aside = `${file}.stale-${process.pid}`;
    try {
      renameSync(file, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue; // someone else moved it first
      throw error;
    }
    const moved = readHolder(aside);
    if (moved && holderAlive(moved)) {
      // Between our read and the rename a live process took the lock over: give it back and stop.
      try {
        linkSync(aside, file);
      } catch {
        // The lock is already someone else's again.
      }
      rmSync(aside, { force: true });
      throw new DataFolderInUseError(dataDir, moved);
    }
    rmSync(aside, { force: true });
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off("exit", release);
    // Only our own lock goes: a holder that lost it (its folder restored under it) removes nothing.
    if (readHolder(file)?.pid === process.pid) rmSync(file, { force: true });
  };
  process.on("exit", release);
  return {
    file,
    holder,
    announceControl(control) {
      holder.control = control;
      const temp = `${file}.${process.pid}.tmp`;
      writeFileSync(temp, JSON.stringify(holder), { mode: 0o600 });
      renameSync(temp, file);
    },
    release,
  };
}
