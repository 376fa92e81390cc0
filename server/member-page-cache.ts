import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { matchRoutes, type ServerBuild } from "react-router";
import { readSignedInSessions } from "~/models/accounts/sessions.server";
import { REQUEST_KEY_HEADER } from "~/request/auth.server";
import { countOpening } from "~/request/memorial-views.server";
import { keptPolicyOf } from "~/utils/kept-pages";
import { sessionIdFromCookie } from "~/request/session.server";
import { isReadableHost } from "./host";
import { header, renderToKeep, requestHeadersWithout, sendKept, type HeaderOptions, type KeptPage } from "./kept-page";
import { documentBuild, handlerFor, pagesBuild, routeTree } from "./request-handler";
import { clientIpOf } from "./security";

// The members' page cache (docs/decisions/030-members-page-cache.md). A signed-in member who opens a
// page again, with nothing changed, gets the page rendered for them the last time instead of a new render.
//
// - Kept per session: the key is the session cookie exactly as sent (checked when the page was rendered), the
//   host and the address. Nothing rendered for one session is ever answered to another.
// - Right on the very next request: each page is kept with the database's snapshot read before it was
//   rendered (app/models/accounts/sessions.server.ts readSignedInSessions). Any write that commits anywhere moves the
//   snapshot, so the page is rendered again; with the same snapshot the database holds the same data. The same
//   read checks that the session is still live and signed in (signed out elsewhere, expired or the account
//   deleted: the app answers). Read-only page loads write nothing, so they leave the snapshot as it is.
// - What moves with the clock alone (an event becoming past, a countdown of days) is rendered anew at least
//   every MAX_AGE_MS.
// - Only GETs of the pages whose route declares `kept.members` (the page, or its `.data` when JavaScript navigates to it) (pages whose loaders write nothing; test/member-page-cache.test.ts
//   checks each), with the session cookie and no flash message or other personal cookie, answered 200 with
//   HTML and no cookie set. Anything else goes to the app untouched.
// - The per-request values (script nonce, form stamp) are put in on the way out, as for visitors
//   (server/kept-page.ts). Bounded: MAX_ENTRIES pages and MAX_BYTES overall, least recently used first out.

const MAX_AGE_MS = 30_000;
const MAX_ENTRIES = 4000;
const MAX_BYTES = 64 * 1024 * 1024;
/** The session cookie, and the cookies whose presence means the app must answer (a flash message, a restore offer). */
const SESSION_COOKIE = /(?:^|;\s*)__session=([^;]*)/g;
const OTHER_PERSONAL_COOKIE = /(?:^|;\s*)(?:__toast|__restore)=/;

/** Which query strings a kept page may have: any (lists, searches, pages), or none (pages that act on theirs). */
type Queries = "any" | "none";

/**
 * The pages kept, by route id: those whose route declares `kept.members` in its handle (app/utils/kept-pages.ts),
 * "any" to keep them whatever the query string, "none" only at the address without one. Left out: pages that act
 * when opened (a payment's return, a token's link, signing out, downloads, the friend search, which counts
 * searches against its limit), the sign-in pages (a member is sent away from them), the not-found page, and the
 * delete page: its Cancel goes back to the page that linked to it (the Referer), which the key does not hold.
 */
type KeptRoute = { queries: Queries; countsViews: boolean };
const keptRoutesOfBuild = new WeakMap<ServerBuild, Map<string, KeptRoute>>();

/** The route ids whose pages are kept for members, with how (read once per build). */
export function keptRoutes(build: ServerBuild): Map<string, KeptRoute> {
  let routes = keptRoutesOfBuild.get(build);
  if (routes) return routes;
  routes = new Map();
  for (const route of Object.values(build.routes)) {
    const kept = route && keptPolicyOf(route.module);
    if (route && kept?.members) routes.set(route.id, { queries: kept.members, countsViews: !!kept.countsViews });
  }
  keptRoutesOfBuild.set(build, routes);
  return routes;
}

type Entry = {
  sid: string;
  userId: string;
  snapshot: string;
  renderedAt: number;
  /** null: this address does not render as a page to keep (a redirect, a 404…): the app answers it. */
  kept: KeptPage | null;
  bytes: number;
};

export function memberPageCache(build: () => Promise<ServerBuild>, options: HeaderOptions) {
  let loaded: ServerBuild | undefined;
  const entries = new Map<string, Entry>();
  let totalBytes = 0;
  const rendering = new Map<string, Promise<Entry>>();
  /** Per path: the leaf route's id if it is a page kept, else null (bounded, as the paths asked for are not). */
  const routeOfPath = new Map<string, { kept: KeptRoute; params: Record<string, string | undefined> } | null>();

  function forget(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    totalBytes -= entry.bytes;
  }

  function remember(key: string, entry: Entry) {
    forget(key);
    entries.set(key, entry);
    totalBytes += entry.bytes;
    while (entries.size > MAX_ENTRIES || totalBytes > MAX_BYTES) forget(entries.keys().next().value!);
  }

  function keptRoute(serverBuild: ServerBuild, pathname: string) {
    let found = routeOfPath.get(pathname);
    if (found === undefined) {
      const matches = matchRoutes(routeTree(serverBuild), pathname);
      const leaf = matches?.[matches.length - 1];
      const kept = leaf && keptRoutes(serverBuild).get(leaf.route.id!);
      found = kept ? { kept, params: leaf.params } : null;
      routeOfPath.set(pathname, found);
      if (routeOfPath.size > 5000) routeOfPath.delete(routeOfPath.keys().next().value!);
    }
    return found;
  }

  async function renderEntry(req: IncomingMessage, url: URL, data: boolean, sid: string, userId: string, snapshot: string): Promise<Entry> {
    const pages = (loaded ??= pagesBuild(await build()));
    const render = handlerFor(data ? pages : documentBuild(pages, url.pathname));
    const headers = requestHeadersWithout(req, (name) => name.startsWith("if-") || name === REQUEST_KEY_HEADER || name === "x-everlight-ip");
    headers.set("x-everlight-ip", clientIpOf(req));
    // Its loaders share one look-up of who is signed in (app/request/auth.server.ts).
    headers.set(REQUEST_KEY_HEADER, randomUUID());
    const kept = await renderToKeep(render, new Request(url, { headers }), 200, data ? "text/x-script" : "text/html");
    return { sid, userId, snapshot, renderedAt: Date.now(), kept, bytes: kept ? kept.bytes + 256 : 256 };
  }

  async function answer(req: IncomingMessage, res: ServerResponse, next: () => void, cookie: string, sessionValue: string) {
    const serverBuild = (loaded ??= pagesBuild(await build()));
    const raw = req.url ?? "/";
    const at = raw.indexOf("?");
    const pathname = at < 0 ? raw : raw.slice(0, at);
    const host = req.headers.host ?? "localhost";
    // A page's data, as JavaScript navigation asks for it (React Router's single fetch: the path with `.data`).
    const data = pathname.endsWith(".data");
    const pagePath = pathname === "/_root.data" ? "/" : data ? pathname.slice(0, -".data".length) : pathname;
    if (!isReadableHost(host) || raw.includes("%00") || !pagePath.startsWith("/") || /\.[^/]*$|^\/(?:api|assets|media)(?:\/|$)/.test(pagePath)) {
      return next();
    }
    const route = keptRoute(serverBuild, pagePath);
    if (!route || (route.kept.queries === "none" && at >= 0)) return next();

    const key = `${host}|${raw}|${sessionValue}`;
    let entry = entries.get(key);
    const sid = entry?.sid ?? (await sessionIdFromCookie(cookie));
    if (!sid) return next();
    const signedIn = await readSignedInSessions(sid);
    const userId = signedIn.users.get(sid);
    if (!userId) return next(); // signed out, expired, deleted, or activity to note: the app answers
    const current = entry && entry.userId === userId && entry.snapshot === signedIn.snapshot && Date.now() - entry.renderedAt < MAX_AGE_MS;
    /** Whether this request's own render ran the page's loaders (which count a view). */
    let rendered = false;
    if (current) {
      if (!entry!.kept) return next();
      entries.delete(key); // most recently used last
      entries.set(key, entry!);
    } else {
      const renderKey = `${key}|${signedIn.snapshot}`;
      let pending = rendering.get(renderKey);
      if (!pending) {
        pending = renderEntry(req, new URL(`http://${host}${raw}`), data, sid, userId, signedIn.snapshot).finally(() => rendering.delete(renderKey));
        rendering.set(renderKey, pending);
        rendered = true;
      }
      entry = await pending;
      remember(key, entry);
      if (!entry.kept) return next();
    }
    if (!rendered && route.kept.countsViews) await countOpening(route.params.id!, (name) => header(req, name));
    sendKept(req, res, 200, entry!.kept, CACHE_HEADERS, options);
  }

  /** Answers the request from a page kept for this session, or hands it to `next` (the app) untouched. */
  return function memberPageCacheHandler(req: IncomingMessage, res: ServerResponse, next: () => void) {
    if (req.method !== "GET") return next();
    const cookie = req.headers.cookie;
    if (!cookie || OTHER_PERSONAL_COOKIE.test(cookie)) return next();
    const sessions = [...cookie.matchAll(SESSION_COOKIE)];
    if (sessions.length !== 1 || !sessions[0][1]) return next();
    if ((req.headers["content-length"] && req.headers["content-length"] !== "0") || req.headers["transfer-encoding"]) return next();
    answer(req, res, next, cookie, sessions[0][1]).catch((error) => {
      // Never an error from here: the app answers (and logs whatever is really wrong).
      if (!res.headersSent) return next();
      console.error("The members' page cache failed while answering:", error);
      res.destroy();
    });
  };
}

/** As the app answers a signed-in member's page (server/request-handler.ts): kept by no one else. */
const CACHE_HEADERS: [string, string][] = [
  ["Cache-Control", "private, no-store"],
  ["Vary", "Cookie, Accept-Encoding"],
];
