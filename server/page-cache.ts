import { randomBytes } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { createRequestHandler, type ServerBuild } from "react-router";
import { publicMemorialVersion, recordView } from "~/models/memorial.server";
import { issueFormStamp } from "~/request/form-guard.server";
import { isPrefetch } from "~/request/facts.server";
import { fillGzip, fillText, packPage, type PackedPage } from "./packed-page";

// The anonymous memorial page cache (issue 7; DESIGN.md "Running at scale"). A shared link brings many
// visitors without an account to one public memorial; they all see the same page, so it is rendered
// once and kept here, keyed by the memorial's updatedAt read from the database on every request. Any
// change to what the page shows moves updatedAt (an edit, a visibility change, media, an approved or
// removed tribute), so the next request renders afresh; a memorial that is not published and public
// has no version and is never served from here. Several instances stay correct: each reads the version.
//
// What differs per request is put in on the way out: the Content-Security-Policy nonce and the signed
// "form started at" stamp of the tribute form are rendered as random placeholders and replaced.
// The copy is kept gzip-compressed with those two values spliced in per request (server/packed-page.ts).
// Browsers and CDNs get an ETag and `Cache-Control: public, no-cache`: they may keep the page but ask
// each time, and a 304 costs one indexed lookup.

const PAGE = /^\/memorials?\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/?$/i;
/** Rendered output differs by these cookies (the signed-in shell, a toast); anything else is ignored. */
const PERSONAL_COOKIE = /(?:^|;\s*)(?:__session|__toast)=/;
const MAX_ENTRIES = 500;
/** A browser's kept copy carries a form stamp; make it fetch a fresh page well inside the stamp's 24 h. */
const ETAG_PERIOD_MS = 6 * 60 * 60 * 1000;

const NONCE_PLACEHOLDER = randomBytes(18).toString("base64url");
const STAMP_PLACEHOLDER = randomBytes(18).toString("base64url");

type Entry = { version: number; page: PackedPage; headers: [string, string][] };

export function memorialPageCache(build: () => Promise<ServerBuild>) {
  const render = createRequestHandler(build, "production");
  const entries = new Map<string, Entry>();
  const rendering = new Map<string, Promise<Entry | null>>();

  function remember(key: string, entry: Entry) {
    entries.delete(key);
    entries.set(key, entry);
    if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  }

  async function renderEntry(url: URL, req: Request, version: number): Promise<Entry | null> {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (name === "cookie" || name.startsWith("if-") || value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
    }
    const response = await render(new Request(url, { headers }), { cspNonce: NONCE_PLACEHOLDER, formStamp: STAMP_PLACEHOLDER });
    const type = response.headers.get("content-type") ?? "";
    if (response.status !== 200 || !type.startsWith("text/html") || response.headers.has("set-cookie")) {
      await response.body?.cancel();
      return null;
    }
    const page = packPage(await response.text(), [NONCE_PLACEHOLDER, STAMP_PLACEHOLDER]);
    const kept = [...response.headers].filter(([name]) => !["content-length", "content-encoding", "cache-control", "vary"].includes(name));
    return { version, page, headers: kept };
  }

  return async function memorialPageCacheMiddleware(req: Request, res: Response, next: NextFunction) {
    if (req.method !== "GET") return next();
    const id = PAGE.exec(req.path)?.[1];
    if (!id || PERSONAL_COOKIE.test(req.get("cookie") ?? "")) return next();
    const page = tributesPage(req.query);
    if (page === null) return next();
    try {
      const updatedAt = await publicMemorialVersion(id);
      if (!updatedAt) return next();
      const version = updatedAt.getTime();
      const { assets } = await build();
      const etag = `W/"${id}.${version.toString(36)}.${page}.${assets.version}.${Math.floor(Date.now() / ETAG_PERIOD_MS)}"`;
      const countable = !isPrefetch(req.get("sec-purpose") ?? req.get("purpose"));

      const shared = () => {
        res.setHeader("Cache-Control", "public, no-cache");
        res.setHeader("Vary", "Cookie, Accept-Encoding");
        res.setHeader("ETag", etag);
        res.setHeader("Last-Modified", updatedAt.toUTCString());
      };
      if (matchesEtag(req.get("if-none-match"), etag)) {
        if (countable) await recordView(id);
        shared();
        // The browser keeps the page it has, rendered with an earlier nonce: it must keep that page's
        // policy too, so this answer carries none (a 304's headers replace the stored ones).
        res.removeHeader("Content-Security-Policy");
        return void res.status(304).end();
      }

      const url = requestUrl(req);
      const key = `${url.origin}|${id}|${page}`;
      let entry = entries.get(key);
      if (entry?.version === version) {
        if (countable) await recordView(id); // a fresh render counts the view in the loader
      } else {
        let pending = rendering.get(key);
        if (!pending) {
          pending = renderEntry(url, req, version).finally(() => rendering.delete(key));
          rendering.set(key, pending);
        } else if (countable) await recordView(id);
        entry = (await pending) ?? undefined;
        if (!entry) return next();
        if ((entries.get(key)?.version ?? -1) <= version) remember(key, entry);
      }

      const values = { [NONCE_PLACEHOLDER]: String(res.locals.cspNonce), [STAMP_PLACEHOLDER]: issueFormStamp() };
      const gzip = req.acceptsEncodings("gzip") === "gzip";
      const body = gzip ? fillGzip(entry.page, values) : fillText(entry.page, values);
      for (const [name, value] of entry.headers) res.setHeader(name, value);
      // Only a page served from here says it may be shared: anything handed on to the app does not.
      shared();
      if (gzip) res.setHeader("Content-Encoding", "gzip");
      res.setHeader("Content-Length", body.length);
      res.status(200).end(body);
    } catch (error) {
      next(error);
    }
  };
}

/** The only query the memorial page reads: ?tributes=N (the tribute list's page). Anything else: no cache. */
function tributesPage(query: Request["query"]): number | null {
  const names = Object.keys(query);
  if (names.length === 0) return 1;
  if (names.length > 1 || names[0] !== "tributes" || typeof query.tributes !== "string") return null;
  return /^[1-9]\d{0,3}$/.test(query.tributes) ? Number(query.tributes) : null;
}

function matchesEtag(header: string | undefined, etag: string) {
  if (!header) return false;
  return header.split(",").some((tag) => tag.trim() === etag || tag.trim() === "*");
}

/** The address React Router's Express adapter would build for this request. */
function requestUrl(req: Request) {
  const forwarded = req.app.enabled("trust proxy") ? req.get("x-forwarded-host")?.split(":")[1] : undefined;
  const port = Number.parseInt(forwarded ?? req.get("host")?.split(":")[1] ?? "", 10);
  const hostname = req.hostname.split(/[\\/?#@]/)[0] || "localhost";
  return new URL(`${req.protocol}://${hostname}${Number.isSafeInteger(port) ? `:${port}` : ""}${req.originalUrl}`);
}
