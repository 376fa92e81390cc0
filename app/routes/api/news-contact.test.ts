import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { simpleParser, type ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NEWS_MESSAGES } from "~/utils/news";
import { CONTACT_MESSAGES } from "~/utils/validation/contact";
import { startFeedServer, type FeedTestServer } from "../../../test/feed-server";
import { client, registerMember, startServer, type ApiResponse, type Client, type TestServer } from "../../../test/http";

// News and contact over real HTTP:
// GET /api/news from its version-keyed cache with an ETag, the administrators' count and fetch against a
// local feed server (a feed that is down refused with its fixed words), POST /api/contact with every
// validation message, the stored message and both emails, and the /contact form's honeypot, fill time and
// rate limit.

let server: TestServer;
let feeds: FeedTestServer;
let admin: Client;

beforeAll(async () => {
  feeds = await startFeedServer();
  feeds.setItems("rss", [
    {
      title: "Obituary: Gwendolen Arkwright",
      path: "/gwen",
      description: "Headmistress for thirty years.",
      published: "2026-11-22T09:00:00Z",
      image: "/img/gwen.png",
    },
    { title: "Village hall reopens after the floods", path: "/hall", published: "2026-11-21T09:00:00Z" },
  ]);
  // The demo data brings an administrator with a known password (README).
  server = await startServer({ SEED_DEMO_DATA: "true", NEWS_FEEDS: `${feeds.url}/rss.xml, ${feeds.url}/down.xml` });
  admin = client(server.url);
  expect((await admin.post("/api/auth/login", { email: "admin@everlight.test", password: "AdminDemo123" })).json.isAdmin).toBe(true);
}, 90_000);
afterAll(async () => {
  await server?.stop();
  await feeds?.stop();
});

const expectError = (res: ApiResponse, status: number, message: string) => {
  expect(res.status, res.text.slice(0, 300)).toBe(status);
  expect(res.json.message).toBe(message);
};

/** The emails the server has written to this address (no SMTP_URL: .eml files under DATA_DIR/outbox). */
async function mailTo(address: string, count: number): Promise<ParsedMail[]> {
  const folder = path.join(server.dataDir, "outbox");
  const mark = address.replace(/[^a-z0-9@._-]/gi, "_").slice(0, 60);
  for (let i = 0; i < 100; i++) {
    let files: string[] = [];
    try {
      files = readdirSync(folder).filter((f) => f.includes(mark));
    } catch {
      // The folder appears with the first message.
    }
    if (files.length >= count) return Promise.all(files.map((f) => simpleParser(readFileSync(path.join(folder, f)))));
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Fewer than ${count} emails to ${address}`);
}

describe("news over HTTP", () => {
  it("lists the articles newest first, with our own picture addresses, and revalidates with its ETag", async () => {
    const visitor = client(server.url);
    const res = await visitor.get("/api/news");
    expect(res.status).toBe(200);
    expect(res.json.length).toBe(5);
    expect(res.headers.get("x-total-count")).toBe("5");
    expect(res.headers.get("cache-control")).toBe("public, no-cache");
    const dates = res.json.map((a: { publishedAt: string }) => Date.parse(a.publishedAt));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    expect(Object.keys(res.json[0]).sort()).toEqual([
      "createdAt",
      "dateAdded",
      "description",
      "id",
      "personName",
      "publishedAt",
      "source",
      "title",
      "updatedAt",
      "url",
      "urlToImage",
    ]);
    for (const a of res.json) expect(a.urlToImage === null || a.urlToImage.startsWith("/")).toBe(true);
    const again = await visitor.get("/api/news", { headers: { "If-None-Match": res.headers.get("etag")! } });
    expect(again.status).toBe(304);
    expectError(await visitor.get("/api/news?page=x"), 400, "There is no such page. Page numbers are whole numbers from 1.");
  });

  it("lets only administrators count and fetch; a fetch stores the new articles once, drafts a memorial, and names the feed that is down", async () => {
    const visitor = client(server.url);
    const member = (await registerMember(server.url)).api;
    expect((await visitor.get("/api/admin/news/count")).status).toBe(401);
    expect((await member.get("/api/admin/news/count")).status).toBe(403);
    expect((await visitor.post("/api/admin/news/fetch")).status).toBe(401);
    expect((await member.post("/api/admin/news/fetch")).status).toBe(403);
    expect((await admin.get("/api/admin/news/count")).json).toEqual({ count: 5, feeds: 2, lastFetch: null });

    const before = (await visitor.get("/api/news")).headers.get("etag");
    const fetched = await admin.post("/api/admin/news/fetch");
    expect(fetched.status).toBe(200);
    expect(fetched.json).toMatchObject({
      message: NEWS_MESSAGES.fetched,
      added: 2,
      memorialsCreated: 1,
      feedsRead: 1,
      failures: [`The feed ${feeds.url}/down.xml answered 503 Service Unavailable.`],
    });
    // The draft is the administrator's, unpublished: visitors cannot see it.
    const draftId = fetched.json.memorials[0].id;
    expect((await admin.get(`/api/memorials/${draftId}`)).json).toMatchObject({ firstName: "Gwendolen", lastName: "Arkwright", isPublished: false });
    expect((await visitor.get(`/api/memorials/${draftId}`)).status).toBe(404);

    const news = await visitor.get("/api/news");
    expect(news.headers.get("etag")).not.toBe(before);
    const gwen = news.json.find((a: { url: string }) => a.url === `${feeds.url}/gwen`);
    expect(gwen).toMatchObject({ personName: "Gwendolen Arkwright", source: "The Local Chronicle: Obituaries" });
    expect(gwen.urlToImage).toMatch(/^\/media\/news\/[0-9a-f-]{36}-640\.webp$/);
    const picture = await visitor.get(gwen.urlToImage);
    expect(picture.status).toBe(200);
    expect(picture.headers.get("content-type")).toBe("image/webp");
    expect((await visitor.get(gwen.urlToImage.replace("-640.webp", "-320.webp"))).status).toBe(200);
    // The news page links out safely and shows our copy.
    const page = await visitor.get("/news");
    expect(page.text).toContain(`href="${feeds.url}/gwen" target="_blank" rel="noopener noreferrer"`);
    expect(page.text).toContain(`src="${gwen.urlToImage}"`);
    expect(page.text).not.toContain(`${feeds.url}/img/`);

    // Fetched again: nothing new.
    expect((await admin.post("/api/admin/news/fetch")).json).toMatchObject({ added: 0, memorialsCreated: 0 });
    expect((await admin.get("/api/admin/news/count")).json).toMatchObject({
      count: 7,
      feeds: 2,
      lastFetch: { status: "partial", articlesAdded: 0, feedsFailed: 1 },
    });
  });
});

describe("contact over HTTP", () => {
  const valid = () => ({
    name: "Ann Lee",
    email: `ann-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`,
    subject: "A question about plans",
    message: "Could you tell me more about the Forever plan?",
    type: "support",
  });

  it("stores the message as new and sends the acknowledgement and the support copy", async () => {
    const body = valid();
    const res = await client(server.url).post("/api/contact", body);
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      id: expect.any(String),
      status: "new",
      type: "support",
      message: CONTACT_MESSAGES.sentTitle,
      description: "We'll get back to you within 24 hours.",
    });
    const [ack] = await mailTo(body.email, 1);
    // A visitor's address is not known to be theirs: nothing they wrote is repeated to it.
    expect(ack.subject).toBe("We have your message");
    expect(ack.text).not.toContain("Could you tell me more about the Forever plan?");
    expect(ack.text).toContain("Monday to Friday, 9am to 6pm UK time");
    const copies = await mailTo("support@everlight.uk", 1);
    const copy = copies.find((m) => m.replyTo?.text === body.email);
    expect(copy?.subject).toBe("[Contact: support] A question about plans");
    expect(copy?.text).toContain("Could you tell me more about the Forever plan?");
  });

  it("answers every validation message, and the default type is general", async () => {
    const api = client(server.url);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: "" }, "name", CONTACT_MESSAGES.name],
      [{ email: "nope" }, "email", CONTACT_MESSAGES.email],
      [{ subject: " " }, "subject", CONTACT_MESSAGES.subject],
      [{ message: "Too short" }, "message", CONTACT_MESSAGES.message],
      [{ type: "complaint" }, "type", CONTACT_MESSAGES.type],
    ];
    for (const [change, field, message] of cases) {
      const res = await api.post("/api/contact", { ...valid(), ...change });
      expectError(res, 400, message);
      expect(res.json.errors[field]).toEqual([message]);
    }
    const { type: _type, ...withoutType } = valid();
    expect((await client(server.url).post("/api/contact", withoutType)).json.type).toBe("general");
  });

  it("refuses the form's honeypot and a form sent back too quickly, and limits each address", async () => {
    const visitor = client(server.url);
    const page = await visitor.get("/contact");
    const stamp = /name="formStartedAt" value="([^"]+)"/.exec(page.text)![1];
    const post = (fields: Record<string, string>, who = visitor) =>
      who.request("POST", "/contact", {
        body: new URLSearchParams({ ...valid(), formStartedAt: stamp, ...fields }).toString(),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
    const quick = await post({});
    expect(quick.status).toBe(400);
    expect(quick.text).toContain("quicker than a person could fill it in");
    await new Promise((r) => setTimeout(r, 3100));
    const bot = await post({ website: "https://spam.example" });
    expect(bot.status).toBe(400);
    expect(bot.text).toContain("a field meant to stay empty was filled in");
    const ok = await post({});
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/contact#contact-form");
    // Four more from the same address are allowed, then refused (5 an hour).
    for (let i = 0; i < 4; i++) expect((await post({})).status).toBe(303);
    const limited = await post({});
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(limited.text).toContain("You have sent several messages in a short time.");
    // The /api counts the same limit.
    expect((await visitor.post("/api/contact", valid())).status).toBe(429);
  });

  it("prefills the form for a signed-in member", async () => {
    const { api } = await registerMember(server.url, { firstName: "Pru", lastName: "Prefill" });
    const email = (await api.get("/api/auth/user")).json.email;
    const page = await api.get("/contact");
    expect(page.text).toMatch(/name="name"[^>]*value="Pru Prefill"|value="Pru Prefill"[^>]*name="name"/);
    expect(page.text).toContain(`value="${email}"`);
  });
});
