// After `react-router build`: writes a Brotli (.br, quality 11) and a gzip (.gz, level 9) copy of every
// hashed script and stylesheet in build/client/assets, so the server sends them compressed at the
// best ratio without compressing on each request (server.js picks the copy the browser accepts).
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const dir = path.resolve("build/client/assets");
let before = 0;
let after = 0;
for (const name of readdirSync(dir)) {
  if (!/\.(js|css|svg|json)$/.test(name)) continue;
  const bytes = readFileSync(path.join(dir, name));
  const br = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
  writeFileSync(path.join(dir, `${name}.br`), br);
  writeFileSync(path.join(dir, `${name}.gz`), gzipSync(bytes, { level: 9 }));
  before += bytes.length;
  after += br.length;
}
console.log(`Compressed assets: ${(before / 1024).toFixed(0)} KB → ${(after / 1024).toFixed(0)} KB with Brotli`);
