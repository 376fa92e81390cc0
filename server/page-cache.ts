import type { IncomingMessage, ServerResponse } from "node:http";
import { matchRoutes, type AppLoadContext, type ServerBuild } from "react-router";
import { readPageVersions, type PageVersionName, type PageVersions } from "~/models/page-version.server";
import { countOpening } from "~/request/memorial-views.server";
import { keptPolicyOf, type VisitorPageKind } from "~/utils/kept-pages";
import { matchesEtag } from "~/services/etag.server";
import { isReadableHost } from "./host";
import { header, keep, renderForKeeping, requestHeadersWithout, sendKept, type HeaderOptions, type KeptPage } from "./kept-page";
import { documentBuild, handlerFor, isDocumentPath, onlyCatchAllClaims, pagesBuild, routeTree } from "./request-handler";
import { searchTemplates } from "./search-template";
import { securityHeaderList } from "./security";
import { withoutTracking } from "./tracking-parameters";

// The anonymous page cache, so that pages stay fast at scale. Every page a visitor can open without
// signing in — the landing page, browse (with
// any query), a public memorial, the shop, the news, help, terms, privacy, contact and the not-found page —
// is the same for every visitor (and the endowment fund's report), so it is rendered once and kept here, keyed by versions read from the
// database on every request (app/models/page-version.server.ts): the memorial's updatedAt for its page;
// for the others the version of what they show (memorials, products, news, plan payments), which triggers in the
// database move at the commit of any change (migration 20261124000000_page_versions). Pages that show
// nothing from the database (help, terms, privacy, contact, 404) read nothing. Several instances stay
// correct: each reads the versions; a change committed before a request arrived is seen by that request.
//
// An address is its path and query string, without the parameters links carry for analytics (a click id,
// `utm_…`: server/tracking-parameters.ts), which no page reads: a visitor from a shared link gets the kept page.
//
// Only a GET without the session cookie and without a flash message (the toast cookie) is answered from
// here; anything else, and any page that did not render as a plain 200 (404 for the not-found page)
// without setting a cookie, goes to the app. What differs per request is put in on the way out: the CSP
// nonce and the signed "form started at" stamp (the tribute and contact forms) are rendered as random
// placeholders of the same length and replaced in the kept gzip bytes (server/packed-page.ts).
//
// It runs on node:http ahead of Express (server.js): a hit costs the version read (shared by the requests
// waiting for it), a copy of the compressed page and the headers. The kept copies are bounded in number per
// kind of page (least recently used go first) and in bytes overall. Browsers and CDNs get an ETag and
// `Cache-Control: public, no-cache`: they may keep the page but ask each time, and a 304 costs the version read.

/** Rendered output differs by these cookies (the signed-in shell, a toast); anything else is ignored. */
const PERSONAL_COOKIE = /(?:^|;\s*)(?:__session|__toast)=/;
/** A browser's kept copy carries a form stamp; make it fetch a fresh page well inside the stamp's 24 h. Kept copies are renewed as often. */
const PERIOD_MS = 6 * 60 * 60 * 1000;
/** Paths whose route match is remembered (the not-found page). */
const MAX_MATCHED_PATHS = 2000;
/**
 * The not-found page says nothing of the address asked for: every address only the catch-all route claims is the
 * one page, kept once (decision 035; server/page-cache.test.ts compares it with the app's render of another),
 * rendered for an address of ours, so nothing a request sends can be written into the copy every one is served.
 */
const NOT_FOUND_KEY = "*";
const NOT_FOUND_ADDRESS = "/__not-found";
/** Memorials whose tribute list's number of pages is remembered. */
const MAX_TRIBUTE_PAGE_COUNTS = 2000;
/** All kept copies together, text and gzip. */
const MAX_BYTES = 64 * 1024 * 1024;

type KindName = VisitorPageKind;
type Kind = { name: KindName; deps: PageVersionName[]; status: number; maxEntries: number };

const KINDS: Record<KindName, Kind> = {
  memorial: { name: "memorial", deps: [], status: 200, maxEntries: 500 },
  landing: { name: "landing", deps: ["memorials"], status: 200, maxEntries: 20 },
  browse: { name: "browse", deps: ["memorials"], status: 200, maxEntries: 300 },
  products: { name: "products", deps: ["products"], status: 200, maxEntries: 60 },
  news: { name: "news", deps: ["news"], status: 200, maxEntries: 60 },
  endowment: { name: "endowment", deps: ["endowment"], status: 200, maxEntries: 10 },
  document: { name: "document", deps: [], status: 200, maxEntries: 40 },
  "not-found": { name: "not-found", deps: [], status: 404, maxEntries: 100 },
};

/** A memorial's id in its page's path. */
const MEMORIAL_ID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

type VisitorRoutes = { paths: Map<string, KindName>; memorial: RegExp[]; notFound: Set<string> };
const visitorRoutesOfBuild = new WeakMap<ServerBuild, VisitorRoutes>();

/**
 * The pages kept for visitors, as their routes declare them (`kept.visitors` in the handle, app/utils/kept-pages.ts),
 * read once per build: the exact paths of the pages without parameters, the patterns of the memorial page's
 * addresses (its `:id` a memorial's id), and the not-found route.
 */
export function visitorRoutes(build: ServerBuild): VisitorRoutes {
  let found = visitorRoutesOfBuild.get(build);
  if (found) return found;
  found = { paths: new Map(), memorial: [], notFound: new Set() };
  for (const route of Object.values(build.routes)) {
    const kind = route && keptPolicyOf(route.module)?.visitors;
    if (!route || !kind) continue;
    if (kind === "not-found") found.notFound.add(route.id);
    else if (kind === "memorial") found.memorial.push(new RegExp(`^${escapeRegExp(fullPathOf(build, route.id)).replace(":id", `(${MEMORIAL_ID})`)}/?$`, "i"));
    else found.paths.set(fullPathOf(build, route.id), kind);
  }
  visitorRoutesOfBuild.set(build, found);
  return found;
}

function fullPathOf(build: ServerBuild, id: string): string {
  const segments: string[] = [];
  for (let route = build.routes[id]; route; route = route.parentId ? build.routes[route.parentId] : undefined) if (route.path) segments.unshift(route.path);
  return `/${segments.join("/")}`;
}

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

type Entry = {
  version: string;
  /** null: this address does not render as a page to keep (a redirect, a 400…): the app answers it. */
  kept: KeptPage | null;
  bytes: number;
};

export function publicPageCache(build: () => Promise<ServerBuild>, options: HeaderOptions) {
  // The build itself, not the function, so React Router derives its route tree once, not per page rendered.
  const kept = new Map<KindName, Map<string, Entry>>(Object.keys(KINDS).map((k) => [k as KindName, new Map()]));
  const bytesOf = new Map<KindName, number>(Object.keys(KINDS).map((k) => [k as KindName, 0]));
  let totalBytes = 0;
  const rendering = new Map<string, Promise<Entry>>();
  let loaded: ServerBuild | undefined;
  /** Whether only the catch-all route (the not-found page) claims a path. */
  const onlyCatchAll = new Map<string, boolean>();
  const searches = searchTemplates();
  /** How many pages each memorial's tribute list has, as its last render at a version said (bounded). */
  const tributePages = new Map<string, { version: string; pages: number }>();

  function forget(kind: KindName, key: string) {
    const entries = kept.get(kind)!;
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytesOf.set(kind, bytesOf.get(kind)! - entry.bytes);
    totalBytes -= entry.bytes;
  }

  function remember(kind: Kind, key: string, entry: Entry) {
    forget(kind.name, key);
    const entries = kept.get(kind.name)!;
    entries.set(key, entry);
    bytesOf.set(kind.name, bytesOf.get(kind.name)! + entry.bytes);
    totalBytes += entry.bytes;
    if (entries.size > kind.maxEntries) forget(kind.name, entries.keys().next().value!);
    while (totalBytes > MAX_BYTES) {
      // The kind holding the most bytes gives up its least recently used copy.
      const [largest] = [...bytesOf].sort((a, b) => b[1] - a[1])[0];
      const oldest = kept.get(largest)!.keys().next().value;
      if (oldest === undefined) break;
      forget(largest, oldest);
    }
  }

  async function renderEntry(url: URL, req: IncomingMessage, kind: Kind, version: string, versions: PageVersions | null, id?: string): Promise<Entry> {
    const render = handlerFor(documentBuild((loaded ??= pagesBuild(await build())), url.pathname));
    const headers = requestHeadersWithout(req, (name) => name === "cookie" || name.startsWith("if-"));
    const context: Partial<AppLoadContext> = kind.deps.includes("memorials") ? { memorialsVersion: versions!.pages.memorials } : {};
    if (id) {
      context.tributePages = (pages) => {
        tributePages.delete(id);
        tributePages.set(id, { version, pages });
        if (tributePages.size > MAX_TRIBUTE_PAGE_COUNTS) tributePages.delete(tributePages.keys().next().value!);
      };
    }
    const renderAt = (address: URL, more: Partial<AppLoadContext> = {}) =>
      renderForKeeping(render, new Request(address, { headers }), kind.status, "text/html", { ...context, ...more });
    // A new search: filled into the page rendered for the same memorials found, if there is one (or can be).
    const fromTemplate = kind.name === "browse" ? await searches(url, version, (address, browseFound) => renderAt(address, { browseFound })) : null;
    const rendered = fromTemplate ? null : await renderAt(url);
    const kept = fromTemplate ?? (rendered && keep(rendered));
    return { version, kept, bytes: kept ? kept.bytes : 256 };
  }

  /** Which kept page an address is, or null; for a memorial its id and the tribute list's page. */
  function classify(pathname: string, search: string, serverBuild: ServerBuild): { kind: Kind; id?: string; page?: number; key: string } | null {
    const visitors = visitorRoutes(serverBuild);
    const named = visitors.paths.get(pathname);
    if (named) return { kind: KINDS[named], key: pathname + search };
    let id: string | undefined;
    for (const pattern of visitors.memorial) id ??= pattern.exec(pathname)?.[1];
    if (id) {
      const page = tributesPage(search);
      return page === null ? null : { kind: KINDS.memorial, id: id.toLowerCase(), page, key: `${id.toLowerCase()}|${page}` };
    }
    // The not-found page: an address only the catch-all route claims, not a file, the /api or media, nor React
    // Router's own (its manifest, which the browser asks for on a not-found page: one kept page for every address
    // not found must never answer it).
    if (/\.[^/]*$|^\/(?:api|assets|media)(?:\/|$)/.test(pathname) || !isDocumentPath(pathname)) return null;
    if (onlyCatchAllClaims(serverBuild, pathname)) return { kind: KINDS["not-found"], key: NOT_FOUND_KEY };
    let notFound = onlyCatchAll.get(pathname);
    if (notFound === undefined) {
      // Matching ranks every route of the app: a millisecond, so each path's answer is remembered (bounded).
      const matches = matchRoutes(routeTree(serverBuild), pathname);
      notFound = visitors.notFound.has(matches?.[matches.length - 1]?.route.id ?? "");
      onlyCatchAll.set(pathname, notFound);
      if (onlyCatchAll.size > MAX_MATCHED_PATHS) onlyCatchAll.delete(onlyCatchAll.keys().next().value!);
    }
    return notFound ? { kind: KINDS["not-found"], key: NOT_FOUND_KEY } : null;
  }

  async function answer(req: IncomingMessage, res: ServerResponse, next: () => void) {
    const serverBuild = (loaded ??= pagesBuild(await build()));
    const raw = req.url ?? "/";
    const at = raw.indexOf("?");
    const pathname = at < 0 ? raw : raw.slice(0, at);
    // A link shared with a click id or a campaign mark is the same page as without (tracking-parameters.ts).
    const search = withoutTracking(at < 0 ? "" : raw.slice(at));
    const host = req.headers.host ?? "localhost";
    // An unreadable Host is refused by the app (server/host.ts), and no kept page is keyed by one.
    if (!isReadableHost(host) || raw.includes("%00") || !pathname.startsWith("/")) return next();
    const found = classify(pathname, search, serverBuild);
    if (!found) return next();
    const { kind, id } = found;

    const period = Math.floor(Date.now() / PERIOD_MS);
    let versions: PageVersions | null = null;
    if (id || kind.deps.length) versions = await readPageVersions(id);
    const memorialVersion = id ? versions!.memorials.get(id) : undefined;
    if (id && memorialVersion === undefined) return next(); // not (or no longer) public: the app answers
    const version = [...kind.deps.map((d) => versions!.pages[d]), memorialVersion ?? "", serverBuild.assets.version, period].join(".");
    // A page of the tribute list past the last shows the last: the last page's kept copy, once a render at this
    // version has said which page that is (any number of such addresses, one render).
    let address = kind.name === "not-found" ? NOT_FOUND_ADDRESS : pathname + search;
    let key = `${host}|${found.key}`;
    const pages = id ? tributePages.get(id) : undefined;
    if (pages?.version === version && found.page! > pages.pages) {
      address = pages.pages > 1 ? `${pathname}?tributes=${pages.pages}` : pathname;
      key = `${host}|${id}|${pages.pages}`;
    }
    const etag = `W/"${kind.name}.${hash(key)}.${version}"`;
    const countOpened = () => (id ? countOpening(id, (name) => header(req, name)) : undefined);

    const entries = kept.get(kind.name)!;
    let entry = entries.get(key);
    if (entry?.version === version && !entry.kept) return next();

    const cacheHeaders: [string, string][] = [
      ["Cache-Control", "public, no-cache"],
      ["Vary", "Cookie, Accept-Encoding"],
      ["ETag", etag],
    ];
    if (memorialVersion !== undefined) cacheHeaders.push(["Last-Modified", new Date(memorialVersion).toUTCString()]);

    if (matchesEtag(header(req, "if-none-match"), etag)) {
      await countOpened();
      // The browser keeps the page it has, rendered with an earlier nonce: it must keep that page's
      // policy too, so this answer carries none (a 304's headers replace the stored ones).
      const security = securityHeaderList("", options).filter(([name]) => name !== "Content-Security-Policy");
      res.writeHead(304, [...security, ...cacheHeaders].flat());
      return void res.end();
    }

    if (entry?.version === version) {
      entries.delete(key); // most recently used last
      entries.set(key, entry);
      await countOpened(); // a fresh render counts the view in the loader
    } else {
      const renderKey = `${kind.name}|${key}|${version}`;
      let pending = rendering.get(renderKey);
      if (!pending) {
        const url = new URL(`http://${host}${address}`);
        pending = renderEntry(url, req, kind, version, versions, id).finally(() => rendering.delete(renderKey));
        rendering.set(renderKey, pending);
      } else await countOpened();
      entry = await pending;
      const current = entries.get(key);
      if (!current || current.version !== version) remember(kind, key, entry);
      if (!entry.kept) return next();
    }

    sendKept(req, res, kind.status, entry.kept!, cacheHeaders, options);
  }

  /** Answers the request from a kept page, or hands it to `next` (the app) untouched. */
  return function publicPageCacheHandler(req: IncomingMessage, res: ServerResponse, next: () => void) {
    if (req.method !== "GET") return next();
    const cookie = req.headers.cookie;
    if (cookie && PERSONAL_COOKIE.test(cookie)) return next();
    if ((req.headers["content-length"] && req.headers["content-length"] !== "0") || req.headers["transfer-encoding"]) return next();
    answer(req, res, next).catch((error) => {
      // Never an error from here: the app answers (and logs whatever is really wrong).
      if (!res.headersSent) return next();
      console.error("The public page cache failed while answering:", error);
      res.destroy();
    });
  };
}

/** The only query the memorial page reads: ?tributes=N (the tribute list's page). Anything else: no cache. */
function tributesPage(search: string): number | null {
  if (search === "" || search === "?") return 1;
  const match = /^\?tributes=([1-9]\d{0,3})$/.exec(search);
  return match ? Number(match[1]) : null;
}

/** A short hash of the address, so that each address's ETag is its own. */
function hash(text: string) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}
