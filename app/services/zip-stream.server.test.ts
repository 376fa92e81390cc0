import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createHash } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { crc32, ZipWriter } from "./zip-stream.server";

// The streamed ZIP writer against real unzippers: Info-ZIP's unzip and Python's zipfile
// both read back every entry byte for byte, with its CRC checked, also through the ZIP64 records.

const folder = mkdtempSync(path.join(tmpdir(), "everlight-zip-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function writeZip(file: string, entries: [string, Uint8Array[]][], zip64From?: number) {
  const chunks: Uint8Array[] = [];
  const zip = new ZipWriter(async (chunk) => void chunks.push(Buffer.from(chunk)), zip64From);
  for (const [name, parts] of entries) await zip.addFile(name, parts);
  const size = await zip.finish();
  writeFileSync(file, Buffer.concat(chunks));
  return size;
}

const big = Buffer.alloc(300_000);
for (let i = 0; i < big.length; i++) big[i] = (i * 7919) % 251;
const entries: [string, Uint8Array[]][] = [
  ["bag/bagit.txt", [Buffer.from("BagIt-Version: 1.0\n")]],
  ["bag/data/media/01-photo.jpg", [big.subarray(0, 100_000), big.subarray(100_000)]],
  ["bag/data/Zoë’s notes.txt", [Buffer.from("née Brontë\n")]],
  ["bag/data/empty.txt", []],
];

describe("the streamed ZIP writer", () => {
  it("computes the standard CRC-32", () => {
    expect(crc32(Buffer.from("123456789"))).toBe(0xcbf43926);
    expect(crc32(Buffer.from("6789"), crc32(Buffer.from("12345")))).toBe(0xcbf43926);
  });

  it.each([
    ["plain", undefined],
    ["with ZIP64 records (from offset 1000)", 1000],
  ])("writes an archive unzip and Python read back exactly: %s", async (_label, zip64From) => {
    const file = path.join(folder, `${zip64From ?? "plain"}.zip`);
    const size = await writeZip(file, entries, zip64From);
    expect(readFileSync(file).length).toBe(size);
    expect(execFileSync("unzip", ["-t", file], { encoding: "utf8" })).toContain("No errors detected");
    const listing = execFileSync(
      "python3",
      [
        "-c",
        "import sys,zipfile,hashlib,json; z=zipfile.ZipFile(sys.argv[1]); print(json.dumps({i.filename: hashlib.sha256(z.read(i)).hexdigest() for i in z.infolist()}))",
        file,
      ],
      { encoding: "utf8" },
    );
    const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
    expect(JSON.parse(listing)).toEqual(Object.fromEntries(entries.map(([name, parts]) => [name, sha(Buffer.concat(parts))])));
  });
});
