import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { client, rawRequest, registerMember, startServer, type Client, type ServerDatabase, type TestServer } from "./http";
import { fillPattern, routeTable, type RouteInfo } from "./route-table";

// No 5xx from any input. Every route, walked from the route table so that a new one is
// covered by default, gets malformed requests as a visitor and as a member: every page action and
// /api call a valid body with one field at a time spoiled (NUL bytes, impossible dates, huge numbers,
// wrong types), JSON or broken multipart where a form is expected, oversized and binary bodies; every
// address hostile query strings and unknown methods. Every answer must be below 500, and the server
// still healthy afterwards.

const NUL = "\u0000";
/** fetch refuses to send some methods (TRACE…): those go through node:http. */
const FETCH_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** A value every form and call would accept for each field name we use (the password is wrong on purpose). */
const VALID: Record<string, string> = {
  firstName: "Ann",
  lastName: "Lee",
  email: "fuzz@example.test",
  password: "Wrong1horse0",
  confirmPassword: "Wrong1horse0",
  currentPassword: "Wrong1horse0",
  newPassword: "Brand2new-pass",
  bio: "A short bio.",
  title: "A title",
  dateOfBirth: "1950-01-02",
  dateOfPassing: "2020-03-04",
  biography: "A long and happy life.",
  visibility: "public",
  category: "individual",
  authorName: "Ann Lee",
  authorEmail: "ann@example.test",
  content: "A lovely memory of her kindness.",
  search: "ann",
  relationship: "Friend",
  tone: "warm",
  memories: "We walked by the sea every Sunday.",
  personalStory: "She grew up by the sea.",
  keyQualities: "kind, funny",
  keyDetails: "Loved the sea",
  caption: "By the sea",
  defaultVisibility: "public",
  discoverable: "on",
  confirm: "on",
  rating: "4",
  type: "ux_feedback",
  ease_of_use: "4",
  feature_satisfaction: "Overall design",
  improvement_suggestions: "More colours",
  shareType: "copy_link",
  shareData: "a note",
  redirectTo: "/",
  order: "1",
  token: "not-a-token",
  // The shop: add to cart, the basket's forms, the shipping form, the payment steps and their calls.
  productId: "00000000-0000-4000-8000-000000000000",
  memorialId: "00000000-0000-4000-8000-000000000001",
  quantity: "2",
  itemId: "00000000-0000-4000-8000-000000000002",
  phone: "07700 900123",
  address: "1 High Street",
  city: "York",
  state: "North Yorkshire",
  zipCode: "YO1 7HH",
  country: "GB",
  js: "1",
  paymentId: "testpay_000000000000000000000000",
  checkoutId: "00000000-0000-4000-8000-000000000003",
  paymentIntentId: "pi_000000000000",
  sessionId: "cs_test_000000",
  amount: "100",
  // The vault and the plans.
  fileId: "no-such-file",
  acknowledge: "on",
  fileName: "will.pdf",
  fileType: "application/pdf",
  fileData: "data:application/pdf;base64,JVBERi0=",
  planId: "forever",
  paymentType: "full",
  testCard: "ok",
  // Friends, news and contact.
  receiverId: "00000000-0000-4000-8000-000000000000",
  requestId: "00000000-0000-4000-8000-000000000000",
  friendId: "00000000-0000-4000-8000-000000000000",
  response: "accepted",
  name: "Ann Lee",
  subject: "A question",
  message: "Hello, I have a question about memorials.",
  // The admin dashboard: products, orders, users, contact messages, tributes.
  // Only names rare enough in the sources: "description", "userId" and "q" appear in nearly every module,
  // and would multiply the whole walk (the product form's description is checked by the same schema as name).
  price: "12.99",
  stockQuantity: "3",
  isActive: "on",
  removeImage: "on",
  status: "processing",
  orderId: "00000000-0000-4000-8000-000000000004",
  messageId: "00000000-0000-4000-8000-000000000005",
  tributeId: "00000000-0000-4000-8000-000000000007",
  confirmOwn: "on",
};
/** Fields whose value decides which path a request takes: spoiled only in their own ways. */
const CHOICE_FIELDS = new Set([
  "js",
  "response",
  "visibility",
  "category",
  "defaultVisibility",
  "discoverable",
  "confirm",
  "type",
  "feature_satisfaction",
  "shareType",
  "redirectTo",
  "acknowledge",
  "planId",
  "paymentType",
  "testCard",
  "isActive",
  "removeImage",
  "status",
  "confirmOwn",
]);
/** Ways to spoil one field of a valid body; null where the spoiler means nothing for that field. */
const SPOILERS: [string, (field: string) => string | null][] = [
  ["a NUL byte", (field) => (CHOICE_FIELDS.has(field) ? null : `a${NUL}b`)],
  ["an impossible date", (field) => (/date/i.test(field) ? "2023-02-29" : null)],
  ["year 0000", (field) => (/date/i.test(field) ? "0000-01-01" : null)],
  ["year 99999", (field) => (/date/i.test(field) ? "99999-01-01" : null)],
  ["a huge number", (field) => (/rating|order|ease|quantity|amount/i.test(field) ? "1e20" : null)],
  ["a negative number", (field) => (/quantity|amount/i.test(field) ? "-3" : null)],
];
const INTENTS = [
  "publish",
  "draft",
  "ai-biography",
  "ai-tribute",
  "approve",
  "reject",
  "tribute",
  "profile",
  "picture",
  "remove-picture",
  "feedback-submit",
  "feedback-skip",
  "increment",
  "decrement",
  "set",
  "remove",
  "clear",
  "shipping",
  "pay",
  "hosted",
  "unlock",
  "lock",
  "upload",
  "delete",
  "set-password",
  "skip-password",
  "start",
  "cancel",
  "request",
  "accept",
  "fetch",
  "grant",
  "revoke",
  "status",
];

const QUERIES = [
  "search=%00",
  "search=a%00b&category=%00&sort=%00&view=%00&page=%00",
  "page=1e20",
  "tributes=1e20",
  "tributes=-1",
  "tributes=0x10",
  "limit=1e400&offset=NaN",
  "approved=%00",
  "feedbackStep=1e20&ease_of_use=%00",
  "email=%00",
  "redirectTo=%00",
  "userId=%00&visibility=%00",
];

type Attack = { name: string; method: string; body?: string | Uint8Array<ArrayBuffer>; contentType?: string };

const urlencoded = "application/x-www-form-urlencoded";
const form = (values: Record<string, string>) => new URLSearchParams(values).toString();

/**
 * The text of a route module and of the app modules it imports, three levels deep: what its forms and
 * calls can be sent. Spoiling a field the route never reads tells nothing, so only fields named here are.
 */
const sources = new Map<string, string>();
function routeSource(route: RouteInfo): string {
  const seen = new Set<string>();
  const texts: string[] = [];
  const visit = (file: string, depth: number) => {
    if (seen.has(file)) return;
    seen.add(file);
    let text = sources.get(file);
    if (text === undefined) {
      try {
        text = readFileSync(file, "utf8");
      } catch {
        text = "";
      }
      sources.set(file, text);
    }
    texts.push(text);
    if (depth === 0) return;
    for (const [, name] of text.matchAll(/from "~\/([^"]+)"/g)) {
      for (const ext of [".ts", ".tsx"]) visit(path.join("app", name + ext), depth - 1);
    }
  };
  visit(path.join("app", route.file), 3);
  return texts.join("\n");
}

/** The intents a page route's forms send, and the fields it reads. */
function formOf(route: RouteInfo) {
  const source = routeSource(route);
  return {
    intents: ["", ...INTENTS.filter((intent) => source.includes(`"${intent}"`))],
    fields: Object.keys(VALID).filter((field) => new RegExp(`\\b${field}\\b`).test(source)),
  };
}

export function bodyAttacks(route: RouteInfo, method: string, stamp: string): Attack[] {
  const list: Attack[] = [];
  const { intents, fields } = formOf(route);
  // Each field spoiled alone in each way, the form's intents taken in turn; and each intent with every
  // field spoiled at once in each way. Every field and every intent meets every spoiler, in a few
  // hundred requests a route rather than fields × intents × spoilers (which took nine minutes a
  // database).
  let turn = 0;
  for (const [spoiler, spoil] of SPOILERS) {
    const spoiled: Record<string, string> = {};
    for (const field of fields) {
      const bad = spoil(field);
      if (bad === null) continue;
      spoiled[field] = bad;
      if (route.api) {
        list.push({ name: `JSON with ${spoiler} in ${field}`, method, contentType: "application/json", body: JSON.stringify({ ...VALID, [field]: bad }) });
        continue;
      }
      const intent = intents[turn++ % intents.length];
      list.push({
        name: `form with ${spoiler} in ${field}, intent ${intent || "(none)"}`,
        method,
        contentType: urlencoded,
        body: form({ ...VALID, formStartedAt: stamp, intent, [field]: bad }),
      });
    }
    if (route.api || Object.keys(spoiled).length === 0) continue;
    for (const intent of intents) {
      list.push({
        name: `form with ${spoiler} in every field, intent ${intent || "(none)"}`,
        method,
        contentType: urlencoded,
        body: form({ ...VALID, formStartedAt: stamp, intent, ...spoiled }),
      });
    }
  }
  // The names Conform keeps for itself, forged: read as JSON, they must not turn a form into a 500.
  if (!route.api) {
    for (const intent of intents.slice(0, 2)) {
      list.push({
        name: `form with Conform's own names forged, intent ${intent || "(none)"}`,
        method,
        contentType: urlencoded,
        body: form({ ...VALID, formStartedAt: stamp, intent, __intent__: "not json", __state__: "{" }),
      });
    }
  }
  const huge = Object.fromEntries(Object.keys(VALID).map((k) => [k, "x".repeat(3000)]));
  list.push({
    name: "every field huge",
    method,
    contentType: route.api ? "application/json" : urlencoded,
    body: route.api ? JSON.stringify(huge) : form(huge),
  });
  list.push({
    name: "JSON of wrong types",
    method,
    contentType: "application/json",
    body: JSON.stringify(Object.fromEntries(Object.keys(VALID).map((k, i) => [k, i % 2 ? [1, { a: null }] : 1e308]))),
  });
  list.push({ name: "JSON that is not an object", method, contentType: "application/json", body: "[1,2,3]" });
  list.push({ name: "broken JSON", method, contentType: "application/json", body: '{"firstName": "Ann",' });
  list.push({
    name: "broken multipart",
    method,
    contentType: "multipart/form-data; boundary=xyz",
    body: '--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\nunterminated',
  });
  list.push({ name: "multipart without a boundary", method, contentType: "multipart/form-data", body: "garbage" });
  list.push({ name: "text/plain", method, contentType: "text/plain", body: "hello" });
  list.push({ name: "no content type", method, body: "a=b" });
  list.push({ name: "oversized form", method, contentType: urlencoded, body: form({ content: "x".repeat(300_000) }) });
  list.push({ name: "oversized JSON", method, contentType: "application/json", body: JSON.stringify({ content: "x".repeat(300_000) }) });
  list.push({ name: "binary garbage", method, contentType: urlencoded, body: new Uint8Array(Array.from({ length: 2048 }, (_, i) => (i * 37) % 256)) });
  return list;
}

/** Whether the route module answers anything but GET (an action, or the /api table's handlers). */
export function takesBodies(route: RouteInfo) {
  const source = readFileSync(path.join("app", route.file), "utf8");
  return /export (async )?function action|export const action|export const \{[^}]*action/.test(source);
}

/** Routes that end the member's session or delete what the other routes use go last. */
const destructive = (route: RouteInfo) => /logout|delete|manage/.test(route.pattern);

/** The whole test on one database; one file per database, so the two run side by side. */
export function describeMalformedInput(database: ServerDatabase) {
  describe(`malformed input on ${database}`, () => {
    let server: TestServer;
    let member: Client;
    let admin: Client;
    let routes: RouteInfo[];
    let stamp = "";
    const values: Record<string, string> = { type: "ux_feedback", event: "skip" };

    beforeAll(async () => {
      // The demo data brings an administrator (README), who walks the admin routes too.
      server = await startServer({ SEED_DEMO_DATA: "true" }, { database });
      routes = await routeTable();
      member = (await registerMember(server.url)).api;
      admin = client(server.url);
      expect((await admin.post("/api/auth/login", { email: "admin@everlight.test", password: "AdminDemo123" })).status).toBe(200);
      const memorial = await member.post("/api/memorials", { firstName: "Fuzz", lastName: "Target", visibility: "public", isPublished: true });
      expect(memorial.status).toBe(201);
      values.id = memorial.json.id;
      // A genuine "form started at" stamp, old enough to pass the tribute form's fill-time check.
      const page = await client(server.url).get(`/memorials/${values.id}`);
      stamp = /name="formStartedAt" value="([^"]+)"/.exec(page.text)?.[1] ?? "";
      expect(stamp).not.toBe("");
      await new Promise((resolve) => setTimeout(resolve, 3100));
    });
    afterAll(async () => {
      await server?.stop();
    });

    it(
      "answers every route's malformed requests below 500, as a visitor, a member and (on the admin routes) an administrator, and stays healthy",
      { timeout: 900_000 },
      async () => {
        const failures = new Set<string>();
        let sent = 0;
        const send = async (route: RouteInfo, who: "visitor" | "member" | "admin", attack: Attack, query = "") => {
          sent++;
          // A visitor keeps no cookies from one request to the next: a registration must not sign them in.
          const api = who === "member" ? member : who === "admin" ? admin : client(server.url);
          const url = fillPattern(route.pattern, values) + (query ? `?${query}` : "");
          // A fresh address for each request, so per-address limits do not hide what lies behind them.
          const headers: Record<string, string> = {
            "X-Forwarded-For": `10.9.${randomBytes(1)[0]}.${randomBytes(1)[0]}`,
            ...(attack.contentType ? { "Content-Type": attack.contentType } : {}),
          };
          const res = FETCH_METHODS.has(attack.method)
            ? await api.request(attack.method, url, { body: attack.body, headers })
            : await rawRequest(server.url, attack.method, url, { body: attack.body, headers: { ...headers, Cookie: api.cookie } });
          if (res.status >= 500)
            failures.add(`${attack.method} ${route.pattern}${query ? `?${query}` : ""} as ${who}, ${attack.name}: ${res.status} ${res.text.slice(0, 100)}`);
          return res.status;
        };
        /**
         * One route's bodies for one method as one person, the oddest first (binary garbage, then broken JSON:
         * no endpoint can take either as its body). An /api endpoint that answers both with
         * 405 (a method it lacks), 401 or 403 has answered before reading the body, as it does for every
         * body; the walk then goes on to the next endpoint.
         */
        const sendBodies = async (route: RouteInfo, who: "visitor" | "member" | "admin", attacks: Attack[]) => {
          const oddest = ["binary garbage", "broken JSON"].map((name) => attacks.find((attack) => attack.name === name)!);
          const statuses = [];
          for (const attack of oddest) statuses.push(await send(route, who, attack));
          if (route.api && statuses.every((status) => [401, 403, 405].includes(status))) return;
          for (const attack of attacks) if (!oddest.includes(attack)) await send(route, who, attack);
        };

        // Everything but the routes that end the session or delete things, several at a time; those last.
        type Job = () => Promise<unknown>;
        const jobs: Job[] = [];
        const lastJobs: Job[] = [];
        for (const who of ["visitor", "member", "admin"] as const) {
          // Administrators walk only the admin routes: the others answer them as they answer members.
          for (const route of who === "admin" ? routes.filter((r) => /^\/(api\/)?admin(\/|$)/.test(r.pattern)) : routes) {
            const list = destructive(route) ? lastJobs : jobs;
            for (const query of QUERIES) list.push(() => send(route, who, { name: "hostile query", method: "GET" }, query));
            for (const method of ["TRACE", "PROPFIND", "OPTIONS", "FOO", "CONNECTX"]) list.push(() => send(route, who, { name: `method ${method}`, method }));
            if (!takesBodies(route)) continue;
            for (const method of route.api ? ["POST", "PUT", "PATCH", "DELETE"] : ["POST"]) {
              const attacks = bodyAttacks(route, method, stamp);
              (method === "DELETE" ? lastJobs : list).push(() => sendBodies(route, who, attacks));
            }
          }
        }
        // Each database takes every other job (the whole walk took five minutes a database otherwise).
        // Together the two still send every job, and with one database alone (no PostgreSQL here) it
        // sends them all.
        const half = <T>(list: T[]) => (inject("postgresUrl") ? list.filter((_, i) => i % 2 === (database === "pglite" ? 0 : 1)) : list);
        const ours = half(jobs);
        const oursLast = half(lastJobs);
        let next = 0;
        await Promise.all(
          Array.from({ length: 6 }, async () => {
            while (next < ours.length) await ours[next++]();
          }),
        );
        for (const job of oursLast) await job();
        console.log(`${database}: ${sent} malformed requests sent`);
        expect([...failures]).toEqual([]);
        const health = await client(server.url).get("/healthz");
        expect(health.status).toBe(200);
      },
    );
  });
}
