import { createWriteStream, openAsBlob } from "node:fs";
import { mkdir, mkdtemp, readdir, rename, rm, stat } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import path from "node:path";
import { getEnv, type Env } from "./env.server";
import { s3Backend } from "./s3-storage.server";

// Where backup archives are kept: a folder (BACKUP_DIR, by default DATA_DIR/backups) or an S3-compatible
// bucket (BACKUP_S3_BUCKET, with the S3_* credentials uploads use). An archive is made in a work folder
// beside the local one first, then moved (or sent) into place whole, so a listed archive is a finished one.

export type BackupKind = "scheduled" | "manual";
export type StoredBackup = { name: string; at: Date; kind: BackupKind };

const NAME = /^everlight-(\d{8})T(\d{6})(\d{3})Z-(scheduled|manual)\.tar$/;

/** An archive's name: when it was made (UTC, to the millisecond) and why, so a listing needs no other look-up. */
export function backupName(at: Date, kind: BackupKind) {
  const stamp = at.toISOString().replace(/[-:]/g, "").replace(".", "");
  return `everlight-${stamp.slice(0, 15)}${stamp.slice(15, 18)}Z-${kind}.tar`;
}

export function parseBackupName(name: string): StoredBackup | null {
  const match = NAME.exec(name);
  if (!match) return null;
  const [, day, time, ms, kind] = match;
  const at = new Date(`${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}T${time.slice(0, 2)}:${time.slice(2, 4)}:${time.slice(4)}.${ms}Z`);
  return Number.isNaN(at.getTime()) ? null : { name, at, kind: kind as BackupKind };
}

export type BackupStore = {
  /** Where archives go, for people: a folder or s3://bucket/prefix. */
  readonly where: string;
  /** A new empty work folder on local disk, for an archive being made. */
  workFolder(): Promise<string>;
  /** Puts a finished archive in place under `name` (the local file is moved or sent, then gone); returns where it is. */
  save(localFile: string, name: string): Promise<string>;
  list(): Promise<StoredBackup[]>;
  remove(name: string): Promise<void>;
};

export function localBackupDir(env: Env = getEnv()) {
  return path.resolve(env.BACKUP_DIR ?? path.join(env.dataDir, "backups"));
}

function bucketOf(env: Env, bucket: string) {
  return s3Backend({
    bucket,
    region: env.S3_REGION,
    endpoint: env.S3_ENDPOINT,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: env.S3_FORCE_PATH_STYLE ? env.S3_FORCE_PATH_STYLE === "true" : undefined,
  });
}

/** Copies an archive kept in a bucket (`s3://bucket/key`, as `npm run backup` prints it) to a local file, with the S3_* credentials. */
export async function downloadArchive(address: string, file: string, env: Env = getEnv()) {
  const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(address);
  if (!match) throw new Error(`Not an address in a bucket: ${address} (s3://bucket/key)`);
  const body = await bucketOf(env, match[1]).stream(match[2]);
  if (!body) throw new Error(`There is no archive at ${address}.`);
  await pipeline(body, createWriteStream(file, { mode: 0o600 }));
}

export function backupStore(env: Env = getEnv()): BackupStore {
  const dir = localBackupDir(env);
  const workFolder = async () => {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return mkdtemp(path.join(dir, ".work-"));
  };
  if (env.BACKUP_S3_BUCKET) {
    const bucket = bucketOf(env, env.BACKUP_S3_BUCKET);
    const prefix = env.BACKUP_S3_PREFIX;
    return {
      where: `s3://${env.BACKUP_S3_BUCKET}/${prefix}`,
      workFolder,
      async save(localFile, name) {
        await bucket.put(prefix + name, await openAsBlob(localFile), "application/x-tar");
        await rm(localFile, { force: true });
        return `s3://${env.BACKUP_S3_BUCKET}/${prefix}${name}`;
      },
      async list() {
        const found: StoredBackup[] = [];
        for await (const key of bucket.keys(prefix)) {
          const parsed = parseBackupName(key.slice(prefix.length));
          if (parsed) found.push(parsed);
        }
        return found;
      },
      remove: (name) => bucket.delete(prefix + name),
    };
  }
  return {
    where: dir,
    workFolder,
    async save(localFile, name) {
      const target = path.join(dir, name);
      await rename(localFile, target);
      return target;
    },
    async list() {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
        throw error;
      }
      return names.map(parseBackupName).filter((b): b is StoredBackup => b !== null);
    },
    remove: (name) => rm(path.join(dir, name), { force: true }),
  };
}

/** The size of a file on disk, or null when it is not there. */
export async function fileSize(file: string): Promise<number | null> {
  try {
    return (await stat(file)).size;
  } catch {
    return null;
  }
}
