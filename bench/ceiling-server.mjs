// The ceiling for a Node server on this machine (bench/public-pages.bench.ts): node:http answering each
// page's own compressed bytes from memory, nothing else. Reads a manifest (JSON: path → file) given as
// the first argument, listens on 127.0.0.1 on a free port and prints it.
import { readFileSync } from "node:fs";
import http from "node:http";

const manifest = JSON.parse(readFileSync(process.argv[2], "utf8"));
const pages = new Map(
  Object.entries(manifest).map(([path, file]) => {
    const body = readFileSync(file);
    return [path, { body, headers: { "Content-Type": "text/html", "Content-Encoding": "gzip", "Content-Length": String(body.length) } }];
  }),
);

const server = http.createServer((req, res) => {
  const page = pages.get(req.url);
  if (!page) return void res.writeHead(404).end();
  res.writeHead(200, page.headers);
  res.end(page.body);
});
server.listen(0, "127.0.0.1", () => console.log(`listening ${server.address().port}`));
process.on("SIGTERM", () => process.exit(0));
