import { randomUUID } from "node:crypto";
import { writeReadableStreamToWritable } from "@react-router/node";
import type { NextFunction, Request, Response } from "express";
import { createRequestHandler as createRouterHandler, matchRoutes, type AppLoadContext, type RouteObject, type ServerBuild } from "react-router";
import { REQUEST_KEY_HEADER } from "~/request/auth.server";
import { BodyTooLargeError } from "~/request/multipart.server";
import { DEFAULT_BODY_BYTES, type RequestBodyHandle } from "~/utils/upload-limits";
import { REFUSALS, sendRefusal, type Refusal } from "./refusals";
import { boundedBodyStream, hasBody, readBody } from "./request-body";

// React Router behind Express: our own small version of @react-router/express's adapter, so that the
// rules every request must follow are applied here once, before any route runs:
// - the method is one the address can answer (405 otherwise);
// - the body is bounded before it is read: DEFAULT_BODY_BYTES for every form and /api call, read whole
//   (and, for a page, checked to be a readable form) before the route sees it; a route that takes files
//   raises its bound in its `handle` and reads the body itself, as a stream that stops at that bound,
//   after it has checked who is asking;
// - a response that depends on the session is never kept by a shared cache.

const API_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
/** Pages answer GET and take forms by POST; other methods are for the /api. */
const PAGE_METHODS = new Set(["GET", "HEAD", "POST"]);
const FORM_TYPE = /^(?:application\/x-www-form-urlencoded|multipart\/form-data)\s*(?:;|$)/i;
/** These cookies change what is rendered: the signed-in session and a flash message. */
const PERSONAL_COOKIE = /(?:^|;\s*)(?:__session|__toast)=/;

type LoadContextGetter = (req: Request, res: Response) => AppLoadContext | Promise<AppLoadContext>;

// React Router's handler, given a function for the build, derives the route tree again on every request
// (about a tenth of a signed-in page's time). Given the build itself it derives once; a new build
// object (the development server after an edit, a narrowed build below) gets a handler of its own.
const handlers = new WeakMap<ServerBuild, ReturnType<typeof createRouterHandler>>();

/** React Router's handler for this build, made once (the page caches render with it too). */
export function handlerFor(serverBuild: ServerBuild) {
  let handler = handlers.get(serverBuild);
  if (!handler) handlers.set(serverBuild, (handler = createRouterHandler(serverBuild, process.env.NODE_ENV)));
  return handler;
}

export function createRequestHandler({ build, getLoadContext }: { build: () => Promise<ServerBuild>; getLoadContext?: LoadContextGetter }) {
  return async function requestHandler(req: Request, res: Response, next: NextFunction) {
    try {
      const api = req.path === "/api" || req.path.startsWith("/api/");
      const url = requestUrl(req);
      // The path as React Router reads it (the URL's, with dot segments resolved).
      const pathname = url.pathname;
      const full = await build();
      const serverBuild = api ? apiBuild(full) : isDocumentPath(pathname) ? documentBuild(pagesBuild(full), pathname) : pagesBuild(full);
      const handleRequest = handlerFor(serverBuild);
      const refuse = (refusal: Refusal, headers?: Record<string, string>) => sendRefusal(req, res, { ...refusal, api, headers });

      if (!(api ? API_METHODS : PAGE_METHODS).has(req.method)) {
        return refuse(REFUSALS.method, { Allow: [...(api ? API_METHODS : PAGE_METHODS)].join(", ") });
      }

      // No address of ours holds a NUL byte, and PostgreSQL cannot store one: refused for every route at once.
      if (/%00/.test(req.originalUrl)) return refuse(REFUSALS.unreadableAddress);

      let body: Uint8Array | ReadableStream<Uint8Array> | undefined;
      let overflow: number | null = null;
      if (!["GET", "HEAD", "OPTIONS"].includes(req.method)) {
        const contentType = req.get("content-type") ?? "";
        if (!api && hasBody(req) && !FORM_TYPE.test(contentType)) return refuse(REFUSALS.notAForm);
        const raised = raisedBodyLimit(serverBuild, req.path, "index" in req.query);
        if (raised) {
          body = boundedBodyStream(req, raised, () => (overflow = raised));
        } else {
          try {
            body = new Uint8Array(await readBody(req, DEFAULT_BODY_BYTES));
          } catch (error) {
            if (error instanceof BodyTooLargeError) return refuse(REFUSALS.tooLarge(error.limitBytes));
            throw error;
          }
          if (!api && !(await readsAsForm(body, contentType))) return refuse(REFUSALS.unreadableForm);
        }
      }

      const controller = new AbortController();
      res.on("close", () => {
        if (!res.writableFinished) controller.abort();
      });
      const request = new Request(url, {
        method: req.method,
        headers: requestHeaders(req),
        signal: controller.signal,
        ...(body ? { body: body as BodyInit, duplex: "half" } : {}),
      } as RequestInit);
      const response = await handleRequest(request, await getLoadContext?.(req, res));
      if (overflow !== null && response.status !== 413) {
        // The route read past its own bound and did not answer that itself.
        await response.body?.cancel();
        return refuse(REFUSALS.tooLarge(overflow));
      }
      await sendResponse(req, res, response);
    } catch (error) {
      next(error);
    }
  };
}

/** `private, no-store`, keeping what else the route said that is not about keeping (e.g. no-transform). */
function privateNoStore(cacheControl: string) {
  const others = cacheControl
    .split(",")
    .map((d) => d.trim())
    .filter((d) => d && !/^(?:private|public|no-store|no-cache|max-age|s-maxage|must-revalidate|proxy-revalidate|immutable|stale-)/i.test(d));
  return ["private", "no-store", ...others].join(", ");
}

/** Whether a page's form body parses: a broken multipart envelope is a 400, not an error in a route. */
async function readsAsForm(body: Uint8Array, contentType: string) {
  if (body.byteLength === 0 || !/^multipart\//i.test(contentType)) return true;
  try {
    await new Response(body as BodyInit, { headers: { "Content-Type": contentType } }).formData();
    return true;
  } catch {
    return false;
  }
}

// The pages and the /api, each answered from a build of its own routes (and the root). React Router ranks
// every route of the build it is given on each request, and on each render rebuilds them all (ServerRouter):
// a page's render does not need the /api's routes, nor an /api call the pages'. Nothing in the
// browser navigates to the /api through the router (it is called with fetch), so the pages' manifest
// leaves it out too.
const halves = new WeakMap<ServerBuild, { pages: ServerBuild; api: ServerBuild }>();

function halvesOf(build: ServerBuild) {
  let found = halves.get(build);
  if (found) return found;
  const fullPath = (id: string | undefined): string => {
    const route = id ? build.routes[id] : undefined;
    if (!route) return "";
    const parent = fullPath(route.parentId);
    return [parent, route.path ?? ""].filter(Boolean).join("/");
  };
  const isApi = (id: string) => /^api(?:\/|$)/.test(fullPath(id));
  found = { pages: keepRoutes(build, (id) => !isApi(id)), api: keepRoutes(build, isApi) };
  halves.set(build, found);
  return found;
}

/** The build with the root and the routes `wanted` says yes to. */
function keepRoutes(build: ServerBuild, wanted: (id: string) => boolean): ServerBuild {
  const pick = <T>(table: Record<string, T>) => Object.fromEntries(Object.entries(table).filter(([id]) => id === "root" || wanted(id)));
  return { ...build, routes: pick(build.routes), assets: { ...build.assets, routes: pick(build.assets.routes) } };
}

/** The build of the pages alone (everything but the /api). */
export function pagesBuild(build: ServerBuild): ServerBuild {
  return halvesOf(build).pages;
}

/** The build of the /api alone. */
export function apiBuild(build: ServerBuild): ServerBuild {
  return halvesOf(build).api;
}

// A document (a page's HTML, or a form posted to it) needs fewer routes still: those of its own address, and
// those of each address above it, which React Router names in the page's initial manifest (so the HTML is
// the same as the pages' build renders; test/document-build.test.ts). Rendering from such a build, React Router
// rebuilds and ranks a handful of routes per request, not the ~75 pages'. Each path's build is remembered
// (bounded, as paths are not); builds with the same routes are one object, with one handler.
const MAX_NARROWED_PATHS = 5000;
const narrowed = new WeakMap<ServerBuild, { byPath: Map<string, ServerBuild>; byRoutes: Map<string, ServerBuild>; unclaimed?: ServerBuild }>();

/** The pages' build narrowed to what the document at `pathname` needs (pagesBuild's result in, not the whole build). */
export function documentBuild(pages: ServerBuild, pathname: string): ServerBuild {
  let memo = narrowed.get(pages);
  if (!memo) narrowed.set(pages, (memo = { byPath: new Map(), byRoutes: new Map() }));
  let found = memo.byPath.get(pathname);
  if (found) return found;
  // Every address whose first segment no route has needs the same routes: the root's, the catch-all's.
  const unclaimed = onlyCatchAllClaims(pages, pathname);
  if (unclaimed && memo.unclaimed) return memo.unclaimed;
  const ids = new Set<string>();
  const segments = pathname.split("/").filter(Boolean);
  for (let n = segments.length; n >= 0; n--) {
    for (const match of matchRoutes(routeTree(pages), `/${segments.slice(0, n).join("/")}`) ?? []) ids.add(match.route.id!);
  }
  const key = [...ids].sort().join("\n");
  found = memo.byRoutes.get(key);
  if (!found) memo.byRoutes.set(key, (found = keepRoutes(pages, (id) => ids.has(id))));
  if (unclaimed) return (memo.unclaimed = found);
  memo.byPath.set(pathname, found);
  if (memo.byPath.size > MAX_NARROWED_PATHS) memo.byPath.delete(memo.byPath.keys().next().value!);
  return found;
}

/** Whether a page request is for a document (not React Router's data or manifest requests, which need every page route). */
export function isDocumentPath(pathname: string) {
  return !pathname.endsWith(".data") && pathname !== "/__manifest";
}

// The first segments of each build's route paths (lower case), or null when one is not a plain word (a parameter,
// an optional segment) and only matching can tell.
const firstSegments = new WeakMap<ServerBuild, Set<string> | null>();

/**
 * Whether no route but the catch-all (the not-found page, path `*`) can claim `pathname`: its first segment is none
 * of the routes' (as React Router reads it: decoded, in any case). Told without matching, which ranks every route
 * of the build (about a millisecond): an address no one made up before costs nothing to place. False when unsure.
 */
export function onlyCatchAllClaims(build: ServerBuild, pathname: string): boolean {
  let known = firstSegments.get(build);
  if (known === undefined) firstSegments.set(build, (known = firstSegmentsOf(build)));
  const first = pathname.split("/").find(Boolean);
  if (!known || first === undefined) return false;
  try {
    return !known.has(decodeURIComponent(first).toLowerCase());
  } catch {
    return false;
  }
}

function firstSegmentsOf(build: ServerBuild): Set<string> | null {
  const found = new Set<string>();
  let catchAll = false;
  const walk = (routes: RouteObject[], above: string): boolean =>
    routes.every((route) => {
      const path = [above, route.path ?? ""].filter(Boolean).join("/");
      const first = path.split("/")[0];
      if (path === "*") return (catchAll = true);
      if (first && !/^[\w.~-]+$/.test(first)) return false;
      if (first) found.add(first.toLowerCase());
      return walk(route.children ?? [], path);
    });
  return walk(routeTree(build), "") && catchAll ? found : null;
}

// The route tree of each build, for finding the route a request is for (its `handle`).
const trees = new WeakMap<ServerBuild, RouteObject[]>();

export function routeTree(build: ServerBuild): RouteObject[] {
  let tree = trees.get(build);
  if (tree) return tree;
  const children = new Map<string | undefined, RouteObject[]>();
  for (const route of Object.values(build.routes)) {
    if (!route) continue;
    const list = children.get(route.parentId) ?? [];
    list.push({ id: route.id, path: route.path, index: route.index, caseSensitive: route.caseSensitive } as RouteObject);
    children.set(route.parentId, list);
  }
  const attach = (parentId: string | undefined): RouteObject[] =>
    (children.get(parentId) ?? []).map((route) => (route.index ? route : { ...route, children: attach(route.id) }));
  tree = attach(undefined);
  trees.set(build, tree);
  return tree;
}

// Each build's answer per path: matching ranks every route of the app, about a millisecond a post (bounded, as paths are not).
const limits = new WeakMap<ServerBuild, Map<string, number | null>>();

/** The larger bound the route whose action this post reaches declares in its handle (file uploads), or null. */
export function raisedBodyLimit(build: ServerBuild, pathname: string, toIndex: boolean): number | null {
  let known = limits.get(build);
  if (!known) limits.set(build, (known = new Map()));
  const key = `${toIndex ? "index" : ""}|${pathname}`;
  let limit = known.get(key);
  if (limit === undefined) {
    limit = findRaisedBodyLimit(build, pathname, toIndex);
    known.set(key, limit);
    if (known.size > 5000) known.delete(known.keys().next().value!);
  }
  return limit;
}

function findRaisedBodyLimit(build: ServerBuild, pathname: string, toIndex: boolean): number | null {
  // Form posts made with JavaScript go to the same path with `.data` (React Router's single fetch).
  const path = pathname === "/_root.data" ? "/" : pathname.replace(/\.data$/, "");
  const matches = matchRoutes(routeTree(build), path) ?? [];
  // A post reaches an index route only with ?index; otherwise its parent layout's action.
  if (matches.length > 1 && matches[matches.length - 1].route.index && !toIndex) matches.pop();
  const leaf = matches[matches.length - 1];
  const handle = leaf ? (build.routes[leaf.route.id!]?.module.handle as RequestBodyHandle | undefined) : undefined;
  const limit = handle?.body?.maxBytes;
  return typeof limit === "number" && limit > DEFAULT_BODY_BYTES ? limit : null;
}

function requestUrl(req: Request) {
  const [, forwardedPort] = req.app.enabled("trust proxy") ? (req.get("x-forwarded-host")?.split(":") ?? []) : [];
  const [, hostPort] = req.get("host")?.split(":") ?? [];
  const port = [forwardedPort, hostPort].map((p) => Number.parseInt(p ?? "", 10)).find(Number.isSafeInteger);
  const hostname = req.hostname.split(/[\\/?#@]/)[0] || "localhost";
  return new URL(`${req.protocol}://${hostname}${port ? `:${port}` : ""}${req.originalUrl}`);
}

function requestHeaders(req: Request) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  // The page read's own key (never the client's): its loaders share one look-up of who is signed in.
  headers.delete(REQUEST_KEY_HEADER);
  if (req.method === "GET" || req.method === "HEAD") headers.set(REQUEST_KEY_HEADER, randomUUID());
  return headers;
}

/**
 * Sends React Router's answer. Anything that depends on the session (a request carrying the session or
 * a flash message, an answer that sets a cookie, the answer to a post) is `private, no-store` unless the route said the
 * answer is the same for everyone (`public`); every answer varies by Cookie, so that a shared cache
 * never hands a member's page to a visitor or the other way round.
 */
async function sendResponse(req: Request, res: Response, response: globalThis.Response) {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers) res.append(name, value);
  // An answer to a form or a call echoes what was sent: personal too.
  const personal = PERSONAL_COOKIE.test(req.get("cookie") ?? "") || response.headers.has("set-cookie") || !["GET", "HEAD"].includes(req.method);
  const cacheControl = response.headers.get("cache-control") ?? "";
  if (personal && !/\bpublic\b/i.test(cacheControl)) res.setHeader("Cache-Control", privateNoStore(cacheControl));
  res.vary("Cookie");
  // A stream of events (the AI helper writing as it goes) starts at once.
  if (/text\/event-stream/i.test(response.headers.get("content-type") ?? "")) res.flushHeaders();
  if (!response.body) return void res.end();
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (res.destroyed || res.writableEnded) return;
    throw error;
  }
}
