import type { z } from "zod";
import { canViewMemorial, isRecordId, MEMORIAL_NOT_FOUND, mayEditMemorial } from "~/models/memorials/access.server";
import type { PublicUser } from "~/models/accounts/users.server";
import { apiError, json, NOT_SIGNED_IN, readJsonBody, readJsonBodyWithFile } from "~/request/api.server";
import { ADMIN_DENIED, getOptionalUser } from "~/request/auth.server";

// Every /api endpoint goes through here: a route module says,
// per method, who may call it (`public` | `member` | `admin`), the schema of its JSON body and what it
// does; the method check (405 with Allow), the access check (401/403 `{ message }`), the record ids in
// the path (404 for a malformed one), the memorial the path names (seen or owned, else 404), the bounded
// JSON body and its validation (400 with `errors` per field), and turning anything unexpected into a 500
// `{ message }` logged once, are written here and nowhere else.
//
//   const api = apiRoute({
//     GET: endpoint({ access: "public", handle: ({ user, url }) => listMemorials(user, url) }),
//     POST: endpoint({ access: "member", body: createMemorialSchema, handle: ({ user, body }) => … }),
//   });
//   export const loader = api.loader;
//   export const action = api.action;
//
// (Two plain exports rather than `export const { loader, action } = …`: React Router's build removes a
// route's loader and action from the browser bundle only when each is its own export.)

export type Access = "public" | "member" | "admin";
export const API_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type ApiMethod = (typeof API_METHODS)[number];

const UNEXPECTED = "Something went wrong. Please try again.";

type UserFor<A extends Access> = A extends "public" ? PublicUser | null : PublicUser;
type BodyOf<S> = S extends z.ZodType ? z.output<S> : undefined;

export type EndpointArgs<A extends Access, S> = {
  request: Request;
  params: Record<string, string | undefined>;
  url: URL;
  user: UserFor<A>;
  body: BodyOf<S>;
  /** The file of an upload endpoint (`file`), on disk until the answer is made; null when not a clean data URL. */
  file: Blob | null;
};

/** What a handler answers: a Response as it is, or data sent as JSON with status 200. */
export type EndpointResult = Response | Record<string, unknown> | unknown[];

export type Endpoint<A extends Access = Access, S extends z.ZodType | undefined = z.ZodType | undefined> = {
  access: A;
  /** The JSON body's schema; without one the body is not read. */
  body?: S;
  /**
   * The body field that carries a file as base64 (a data URL): decoded to a temporary file as the body
   * arrives, never held in memory, and given to the handler as `file`.
   */
  file?: string;
  /** A larger bound for this body (uploads as base64); the route's `handle` must raise the server's too. */
  maxBodyBytes?: number;
  /** The 413's message when the body is larger. */
  tooLargeMessage?: string;
  /** The 401's message when a visitor calls, where the call has its own words ("Please log in to …"). */
  signInMessage?: string;
  /** Path params naming a record, each with its 404 message: a malformed id is answered here, before any lookup. */
  ids?: Record<string, string>;
  /**
   * `params.id` names a memorial the caller must be able to see (`visible`) or must own (`owned`); for any
   * other, missing or malformed id the answer is memorialNotFound(), before the body is read.
   */
  memorial?: "visible" | "owned";
  /** Reads a text/plain body as JSON (navigator.sendBeacon sends strings that way). */
  textPlainIsJson?: boolean;
  /** Runs after the access check and before the body is read: e.g. "is this your memorial?" for an upload. */
  before?: (args: Omit<EndpointArgs<NoInfer<A>, undefined>, "body" | "file">) => Promise<Response | null | undefined> | Response | null | undefined;
  handle: (args: EndpointArgs<NoInfer<A>, NoInfer<S>>) => Promise<EndpointResult> | EndpointResult;
};

/** One method's endpoint, with its types inferred (`access` decides whether `user` can be null). */
export function endpoint<const A extends Access, S extends z.ZodType | undefined = undefined>(definition: Endpoint<A, S>): Endpoint<A, S> {
  return definition;
}

// A route's endpoints differ in access and body; each was type-checked where endpoint() made it.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyEndpoint = Endpoint<any, any>;
type Endpoints = Partial<Record<ApiMethod, AnyEndpoint>>;
type RouteArgs = { request: Request; params: Record<string, string | undefined> };

/** The methods an /api route answers, for `Allow` (on a 405, and on OPTIONS: how the access test finds them). */
export function allowedMethods(endpoints: Endpoints): string {
  const methods: string[] = API_METHODS.filter((m) => endpoints[m]);
  if (endpoints.GET) methods.splice(1, 0, "HEAD");
  return methods.join(", ");
}

export function apiRoute(endpoints: Endpoints) {
  const allow = allowedMethods(endpoints);
  const serve = async ({ request, params }: RouteArgs): Promise<Response> => {
    if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: { Allow: allow, "Cache-Control": "no-store" } });
    const method = (request.method === "HEAD" ? "GET" : request.method) as ApiMethod;
    const definition = endpoints[method];
    if (!definition) return apiError(405, "Method not allowed", {}, { headers: { Allow: allow } });
    return run(definition, request, params);
  };
  return { loader: serve, action: serve };
}

async function run(definition: AnyEndpoint, request: Request, params: RouteArgs["params"]): Promise<Response> {
  try {
    const user = await getOptionalUser(request);
    if (definition.access !== "public" && !user) return apiError(401, definition.signInMessage ?? NOT_SIGNED_IN);
    if (definition.access === "admin" && !user?.isAdmin) return apiError(403, ADMIN_DENIED);
    for (const [param, message] of Object.entries(definition.ids ?? {})) if (!isRecordId(params[param])) return apiError(404, message);
    if (definition.memorial && !(await mayUseMemorial(definition.memorial, params.id, user))) return memorialNotFound();
    const url = new URL(request.url);
    const stop = await definition.before?.({ request, params, url, user });
    if (stop) return stop;
    const options = { maxBytes: definition.maxBodyBytes, tooLargeMessage: definition.tooLargeMessage };
    if (definition.body && definition.file) {
      const upload = await readJsonBodyWithFile(request, definition.body, { ...options, fileField: definition.file });
      try {
        const result = await definition.handle({ request, params, url, user, body: upload.body, file: upload.file });
        return result instanceof Response ? result : json(result);
      } finally {
        await upload.discard();
      }
    }
    const body = definition.body ? await readJsonBody(definition.textPlainIsJson ? textPlainAsJson(request) : request, definition.body, options) : undefined;
    const result = await definition.handle({ request, params, url, user, body, file: null });
    return result instanceof Response ? result : json(result);
  } catch (error) {
    if (error instanceof Response) return error;
    console.error(`${request.method} ${new URL(request.url).pathname} failed:`, error);
    return apiError(500, UNEXPECTED);
  }
}

/**
 * The one answer for a memorial the caller may not see (or write), or that does not exist: 404 for
 * visitors and members alike, so the API never tells anyone that a private memorial exists.
 */
export function memorialNotFound(): Response {
  return apiError(404, MEMORIAL_NOT_FOUND);
}

async function mayUseMemorial(rule: "visible" | "owned", id: string | undefined, user: PublicUser | null): Promise<boolean> {
  if (!isRecordId(id)) return false;
  if (rule === "owned") return !!user && (await mayEditMemorial(id, user.id));
  return (await canViewMemorial(id, user))?.allowed ?? false;
}

/** The same request, its text/plain body labelled as the JSON it holds. */
function textPlainAsJson(request: Request): Request {
  if (!/^text\/plain\s*(?:;|$)/i.test(request.headers.get("Content-Type") ?? "")) return request;
  const headers = new Headers(request.headers);
  headers.set("Content-Type", "application/json");
  return new Request(request.url, { method: request.method, headers, body: request.body, duplex: "half" } as RequestInit);
}

/** 201 Created with the new thing. */
export function created(data: unknown, init: ResponseInit = {}) {
  return json(data, { ...init, status: 201 });
}
