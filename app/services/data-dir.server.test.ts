import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { discardAbandonedUploads } from "./data-dir.server";

// Uploads wait under DATA_DIR/incoming while their post is read; a server that
// stopped hard leaves them there, and the next start removes the ones a day old, never one that
// another instance on the same folder may be receiving.

const dir = mkdtempSync(path.join(tmpdir(), "everlight-data-dir-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("discardAbandonedUploads", () => {
  it("removes uploads left for a day, and keeps one still arriving", () => {
    const old = path.join(dir, "incoming", "old-upload");
    const fresh = path.join(dir, "incoming", "fresh-upload");
    for (const folder of [old, fresh]) {
      mkdirSync(folder, { recursive: true });
      writeFileSync(path.join(folder, "0"), "part of a video");
    }
    const dayAgo = new Date(Date.now() - 25 * 3600_000);
    utimesSync(old, dayAgo, dayAgo);
    discardAbandonedUploads(dir);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(path.join(fresh, "0"))).toBe(true);
  });

  it("is nothing to do when no upload ever came", () => {
    const empty = mkdtempSync(path.join(tmpdir(), "everlight-data-dir-empty-"));
    expect(() => discardAbandonedUploads(empty)).not.toThrow();
    rmSync(empty, { recursive: true, force: true });
  });
});
