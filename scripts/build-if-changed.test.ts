import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
// @ts-expect-error a plain script, without types
import { buildIfChanged, sourcesFingerprint } from "./build-if-changed.mjs";

// `npm start` builds only when a source changed: the fingerprint it compares.

const root = mkdtempSync(path.join(tmpdir(), "everlight-fingerprint-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the sources' fingerprint", () => {
  it("stays the same while nothing changes, and moves with an edit, a new file or a touched one, never with a test", () => {
    mkdirSync(path.join(root, "app", "routes"), { recursive: true });
    writeFileSync(path.join(root, "app", "routes", "home.tsx"), "export default 1;");
    writeFileSync(path.join(root, "package.json"), "{}");
    const fingerprint = () => sourcesFingerprint(root) as string;
    const first = fingerprint();
    expect(fingerprint()).toBe(first);

    writeFileSync(path.join(root, "app", "routes", "home.test.tsx"), "a test is not built");
    expect(fingerprint()).toBe(first);

    writeFileSync(path.join(root, "app", "routes", "home.tsx"), "export default 22;");
    const edited = fingerprint();
    expect(edited).not.toBe(first);

    writeFileSync(path.join(root, "app", "routes", "about.tsx"), "export default 3;");
    const added = fingerprint();
    expect(added).not.toBe(edited);

    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(root, "package.json"), later, later);
    expect(fingerprint()).not.toBe(added);
  });
});

describe("a start that needs a build", () => {
  it("stops before building while a server runs on the data folder (it would replace that server's scripts under it)", async () => {
    const site = mkdtempSync(path.join(tmpdir(), "everlight-running-"));
    try {
      mkdirSync(path.join(site, "data"));
      writeFileSync(path.join(site, "data", "everlight.lock"), JSON.stringify({ pid: process.pid }));
      const exit = vi.spyOn(process, "exit").mockImplementation(((code: number) => {
        throw new Error(`exit ${code}`);
      }) as never);
      const said = vi.spyOn(console, "error").mockImplementation(() => {});
      const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };
      delete process.env.DATA_DIR;
      delete process.env.DATABASE_URL;
      try {
        await expect(buildIfChanged(site)).rejects.toThrow("exit 1");
        expect(said).toHaveBeenCalledWith(expect.stringContaining(`An Everlight server (pid ${process.pid}) is running on this data folder`));
      } finally {
        Object.assign(process.env, Object.fromEntries(Object.entries(saved).filter(([, v]) => v !== undefined)));
        exit.mockRestore();
        said.mockRestore();
      }
    } finally {
      rmSync(site, { recursive: true, force: true });
    }
  });

  it("says it is building, and keeps saying so until it is done", async () => {
    const site = mkdtempSync(path.join(tmpdir(), "everlight-building-"));
    const said: string[] = [];
    const log = vi.spyOn(console, "log").mockImplementation((line: string) => void said.push(line));
    const saved = process.env.DATA_DIR;
    process.env.DATA_DIR = path.join(site, "data");
    try {
      // A build that takes a second and a half and makes what a build makes.
      const build = `require('fs').mkdirSync('build/server',{recursive:true});setTimeout(()=>require('fs').writeFileSync('build/server/index.js',''),1500)`;
      writeFileSync(path.join(site, "package.json"), JSON.stringify({ scripts: { build: `node -e "${build}"` } }));
      await buildIfChanged(site, { every: 400 });
      expect(said[0]).toBe("Build: the sources changed, building (about a minute or two the first time)…");
      expect(said.filter((line) => /^Build: still building \(\d+ s\)…$/.test(line)).length).toBeGreaterThanOrEqual(2);
      expect(said.at(-1)).toMatch(/^Build: done in \d+\.\d s$/);
      said.length = 0;
      await buildIfChanged(site);
      expect(said).toEqual(["Build: up to date"]);
    } finally {
      if (saved === undefined) delete process.env.DATA_DIR;
      else process.env.DATA_DIR = saved;
      log.mockRestore();
      rmSync(site, { recursive: true, force: true });
    }
  });
});
