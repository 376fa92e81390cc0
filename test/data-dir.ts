import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

/**
 * Stored files go to a temp folder, not the repository's ./data: call at the top of a test file, before
 * anything calls getEnv() (it reads DATA_DIR on first use). The folder goes, and DATA_DIR is put back, after
 * the file's tests.
 */
export function useTempDataDir(name: string): string {
  const previous = process.env.DATA_DIR;
  const dataDir = mkdtempSync(path.join(tmpdir(), `everlight-${name}-`));
  process.env.DATA_DIR = dataDir;
  afterAll(() => {
    if (previous === undefined) delete process.env.DATA_DIR;
    else process.env.DATA_DIR = previous;
    rmSync(dataDir, { recursive: true, force: true });
  });
  return dataDir;
}
