import { randomBytes } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "~/services/password.server";
import { RATE_LIMITS } from "~/models/rate-limit.server";
import { CONTACT_MESSAGES } from "~/utils/validation/contact";
import type { ParsedMail } from "mailparser";
import { NEWS_MESSAGES } from "~/utils/news";
import { RESET_MESSAGES } from "~/utils/password-reset";
import { startFeedServer, type FeedTestServer } from "./feed-server";
import { client, rawRequest, registerMember, serverDatabases, startServer, type Client, type TestServer } from "./http";
import { startSmtp, type TestSmtp } from "./smtp-server";

// Attacked over real HTTP against the built server, on PGlite and PostgreSQL.
// Proxies: the client writes the left of X-Forwarded-For. With TRUST_PROXY=true (one proxy, as these test
// servers run) only the right-most hop, the one our proxy appended, is the client's address: a new
// made-up first hop on every request neither escapes a per-address limit nor reaches the audit log.
// Reset links: a reset link dies when the password changes or a newer one is asked for, also a link the mail
// worker only makes after the change.
// Contact: the contact form and POST /api/contact mail no one an attacker's words, and share one guard.
// News: "Fetch news now" never follows a feed's redirect into our own network (here: another port of 127.0.0.1).

const PASSWORD = "Correct1horse";
const randomIp = () => `10.${[0, 0, 0].map(() => randomBytes(1)[0]).join(".")}`;
const spoofed = () => `${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
const form = (values: Record<string, string>) => ({
  body: new URLSearchParams(values).toString(),
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
});
/** The path and query of the reset link in an email (its host is PUBLIC_URL's, not this test server's), or null. */
const resetLinkIn = (mail: ParsedMail) => (mail.text ?? "").match(/\/reset-password\?token=[\w-]+/)?.[0] ?? null;

describe.each(serverDatabases())("the security second pass over HTTP on %s", (database) => {
  let server: TestServer;
  let smtp: TestSmtp;
  /** A news site the administrator set up, and a service inside our network that one of its feeds redirects to. */
  let feeds: FeedTestServer;
  let inside: FeedTestServer;
  let redirectingFeed = "";
  const adminEmail = `admin-${randomBytes(4).toString("hex")}@example.test`;
  beforeAll(async () => {
    smtp = await startSmtp();
    [feeds, inside] = await Promise.all([startFeedServer(), startFeedServer()]);
    redirectingFeed = `${feeds.url}/redirect?to=${encodeURIComponent(`${inside.url}/rss.xml`)}`;
    server = await startServer(
      { SMTP_URL: smtp.url, MAIL_FROM: "Everlight <no-reply@everlight.test>", NEWS_FEEDS: `${feeds.url}/rss.xml,${redirectingFeed}` },
      {
        database,
        prepare: async (db) => {
          await db.prisma.user.create({
            data: { email: adminEmail, firstName: "Audit", lastName: "Admin", password: await hashPassword(PASSWORD), isAdmin: true },
          });
        },
      },
    );
  });
  afterAll(async () => {
    await server?.stop();
    await Promise.all([smtp?.stop(), feeds?.stop(), inside?.stop()]);
  });
  const mailsTo = (address: string) => smtp.received.filter((_, i) => smtp.recipients[i].includes(address));
  /** The `nth` email (from 1) to the address, once it has arrived. */
  const mailTo = async (address: string, nth = 1) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const mails = mailsTo(address);
      if (mails.length >= nth) return mails[nth - 1];
      if (Date.now() > deadline) throw new Error(`No email number ${nth} to ${address}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it("the key a page read's loaders share to look the member up once is the server's: one a client sends shares nobody's", async () => {
    const [ann, ben] = await Promise.all([
      registerMember(server.url, { firstName: "Annika", lastName: "Keyholder" }),
      registerMember(server.url, { firstName: "Benedikt", lastName: "Keyholder" }),
    ]);
    const forged = { "X-Everlight-Request-Key": "the-same-for-everyone" };
    const pages = await Promise.all([ann, ben, ann, ben].map(({ api }) => api.get("/account", { headers: forged })));
    for (const [i, page] of pages.entries()) {
      expect(page.status).toBe(200);
      const [mine, theirs] = i % 2 === 0 ? ["Annika", "Benedikt"] : ["Benedikt", "Annika"];
      expect(page.text).toContain(mine);
      expect(page.text).not.toContain(theirs);
    }
    // A visitor with the key of a member's page gets no one's session either.
    expect((await client(server.url).get("/account", { headers: forged })).status).toBe(302);
  });

  it("registration: a made-up first hop on every request still meets the 5-an-hour limit of the real address", async () => {
    const real = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMITS.registerPerIp.limit + 2; i++) {
      const res = await client(server.url, { ip: `${spoofed()}, ${real}` }).post("/api/auth/register", {
        firstName: "Spoof",
        lastName: "Hops",
        email: `spoof-${i}-${randomBytes(3).toString("hex")}@example.test`,
        password: PASSWORD,
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array(RATE_LIMITS.registerPerIp.limit).fill(201), 429, 429]);
  });

  it("forgot password: made-up first hops, also in a second X-Forwarded-For header, share the real address's limit", async () => {
    const real = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMITS.resetPerIp.limit + 1; i++) {
      // node:http sends the header twice; the server reads them as one list, the real hop still last.
      const res = await rawRequest(server.url, "POST", "/forgot-password", {
        headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": [spoofed(), `${spoofed()}, ${real}`] as unknown as string },
        body: `email=nobody-${i}-${randomBytes(3).toString("hex")}%40example.test`,
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array(RATE_LIMITS.resetPerIp.limit).fill(303), 429]);
  });

  it("the audit log records the address the proxy saw, never the one the client made up", async () => {
    const real = randomIp();
    const made = "6.6.6.6";
    const admin = client(server.url, { ip: `${made}, ${real}` });
    expect((await admin.post("/api/auth/login", { email: adminEmail, password: PASSWORD })).status).toBe(200);
    const product = await admin.post("/api/admin/products", {
      name: `Spoof candle ${real}`,
      description: "Audit",
      price: 999,
      category: "Candles",
      stockQuantity: 1,
    });
    expect(product.status).toBe(201);
    const audit = await admin.get("/admin/audit");
    expect(audit.status).toBe(200);
    const page = audit.text.replace(/<!-- -->/g, "");
    expect(page).toContain(`from ${real}`);
    expect(page).not.toContain(made);
  });

  describe("a reset link dies when the password changes", () => {
    /** A member signed in on a client of their own, with the address their emails go to. */
    const member = async (): Promise<{ api: Client; email: string }> => {
      const email = `reset-${randomBytes(5).toString("hex")}@example.test`;
      const api = client(server.url);
      const res = await api.post("/api/auth/register", { firstName: "Rosa", lastName: "Reset", email, password: PASSWORD });
      expect(res.status).toBe(201);
      return { api, email };
    };
    const askForLink = async (email: string) => expect((await client(server.url).request("POST", "/forgot-password", form({ email }))).status).toBe(303);
    /** Changes the password with the Account → Security form, as the member would. */
    const changeInSecurity = async (api: Client, newPassword: string) => {
      const changed = await api.request("POST", "/account/security", form({ currentPassword: PASSWORD, newPassword, confirmPassword: newPassword }));
      expect(changed.status).toBe(303);
      expect(changed.headers.get("location")).toBe("/account/security");
    };
    /** What whoever holds the link gets: the page, then the form's answer when they choose a password. */
    const tryLink = async (link: string, password: string) => {
      const visitor = client(server.url);
      const page = await visitor.get(link);
      const token = new URLSearchParams(link.split("?")[1]).get("token")!;
      const posted = await visitor.request("POST", "/reset-password", form({ token, password, confirmPassword: password }));
      return { page, posted };
    };
    const signsIn = async (email: string, password: string) => (await client(server.url).post("/api/auth/login", { email, password })).status === 200;

    it("a link from Forgot password stops working once the password is changed in Account → Security", async () => {
      const { api, email } = await member();
      await askForLink(email);
      const link = resetLinkIn(await mailTo(email));
      expect(link).toBeTruthy();
      expect((await client(server.url).get(link!)).status).toBe(200);
      await changeInSecurity(api, "Changed2pass");
      const { page, posted } = await tryLink(link!, "Takeover3pass");
      expect(page.status).toBe(410);
      expect(page.text).toContain(RESET_MESSAGES.used);
      expect(posted.status).toBe(410);
      expect(await signsIn(email, "Takeover3pass")).toBe(false);
      expect(await signsIn(email, "Changed2pass")).toBe(true);
    });

    it("a newer Forgot-password request uses up the earlier link; the newer one works", async () => {
      const { email } = await member();
      await askForLink(email);
      const first = resetLinkIn(await mailTo(email, 1));
      await askForLink(email);
      const second = resetLinkIn(await mailTo(email, 2));
      expect(first).toBeTruthy();
      expect(second).toBeTruthy();
      expect(second).not.toBe(first);
      const old = await tryLink(first!, "Earlier4link");
      expect(old.page.status).toBe(410);
      expect(old.posted.status).toBe(410);
      expect(await signsIn(email, "Earlier4link")).toBe(false);
      const fresh = await tryLink(second!, "Newer5link");
      expect(fresh.page.status).toBe(200);
      expect(fresh.posted.status).toBe(303);
      expect(await signsIn(email, "Newer5link")).toBe(true);
    });

    it("a link asked for before the change but emailed after it (the mail worker was busy) is never sent", async () => {
      const { api, email } = await member();
      // The worker is kept busy sending another email (the mail server takes its time), so the reset
      // request below waits in the outbox until after the password change.
      const hold = smtp.hold();
      try {
        expect(
          (
            await client(server.url).post("/api/contact", {
              name: "Busy Worker",
              email: `busy-${randomBytes(4).toString("hex")}@example.test`,
              subject: "Hello",
              message: "Just saying hello to the team.",
              type: "general",
            })
          ).status,
        ).toBe(201);
        await hold.holding;
        await askForLink(email);
        await changeInSecurity(api, "Changed6pass");
      } finally {
        hold.release();
      }
      // The change's own email was queued after the reset request, so once it has arrived the worker has
      // dealt with the request: it sent no link (before the fix, it sent one that worked for an hour).
      const changed = await mailTo(email);
      const mails = mailsTo(email);
      expect(mails.map((m) => m.subject)).toEqual(["Your Everlight password was changed"]);
      expect(resetLinkIn(changed)).toBeNull();
      expect(await signsIn(email, "Changed6pass")).toBe(true);
    });
  });

  describe("the contact form is no mail relay", () => {
    const spam = { name: "Cheap Pills", subject: "Buy at pills.example", message: "Visit https://pills.example today for cheap pills", type: "general" };

    it("POST /api/contact: the acknowledgement to the address typed in repeats nothing of what was written", async () => {
      const victim = `victim-${randomBytes(4).toString("hex")}@example.test`;
      expect((await client(server.url).post("/api/contact", { ...spam, email: victim })).status).toBe(201);
      const mail = await mailTo(victim);
      expect(mail.subject).toBe("We have your message");
      for (const words of ["pills", "Cheap Pills"]) {
        expect(mail.text ?? "").not.toContain(words);
        expect(String(mail.html)).not.toContain(words);
      }
    });

    it("the /contact form: the same plain acknowledgement", async () => {
      const victim = `victim-${randomBytes(4).toString("hex")}@example.test`;
      const visitor = client(server.url);
      const page = await visitor.get("/contact");
      const stamp = page.text.match(/name="formStartedAt" value="([^"]+)"/)?.[1];
      expect(stamp).toBeTruthy();
      // The form's stamp must be 3 seconds old before it is accepted (a person filling it in).
      await new Promise((r) => setTimeout(r, 3100));
      const sent = await visitor.request("POST", "/contact", {
        body: new URLSearchParams({ ...spam, email: victim, formStartedAt: stamp!, website: "" }).toString(),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
      expect(sent.status).toBe(303);
      const mail = await mailTo(victim);
      expect(mail.subject).toBe("We have your message");
      expect(mail.text ?? "").not.toContain("pills");
    });

    it("POST /api/contact has the form's guard: a filled honeypot is refused, and the address limit holds whatever the first hop says", async () => {
      const honey = await client(server.url).post("/api/contact", {
        ...spam,
        email: `h-${randomBytes(4).toString("hex")}@example.test`,
        website: "https://bot.example",
      });
      expect(honey.status).toBe(400);
      expect(honey.json.message).toBe(CONTACT_MESSAGES.honeypot);

      const real = randomIp();
      const statuses: number[] = [];
      for (let i = 0; i < RATE_LIMITS.contactPerIp.limit + 1; i++) {
        const res = await client(server.url, { ip: `${spoofed()}, ${real}` }).post("/api/contact", {
          ...spam,
          email: `flood-${i}-${randomBytes(3).toString("hex")}@example.test`,
        });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([...Array(RATE_LIMITS.contactPerIp.limit).fill(201), 429]);
    });
  });

  describe("news fetching cannot reach inside", () => {
    it("Fetch news now: a feed that redirects to another address of our own network is refused with a clear message, and nothing inside is asked", async () => {
      const admin = client(server.url);
      expect((await admin.post("/api/auth/login", { email: adminEmail, password: PASSWORD })).status).toBe(200);
      const refusal = `The feed ${redirectingFeed} points at a private network address.`;

      const fetched = await admin.post("/api/admin/news/fetch");
      expect(fetched.status).toBe(200);
      expect(fetched.json).toMatchObject({ message: NEWS_MESSAGES.fetched, feedsRead: 1, failures: [refusal] });

      // The administrators' page: its Fetch news now button, then the last fetch's report.
      const posted = await admin.request("POST", "/admin/news", form({ intent: "fetch" }));
      expect(posted.status).toBe(303);
      const page = await admin.get("/admin/news");
      expect(page.status).toBe(200);
      expect(page.text.replace(/<!-- -->/g, "")).toContain(refusal);

      // The configured feeds were read (the allowance is theirs, host and port) ...
      expect(feeds.hits.get("/rss.xml")).toBe(2);
      expect(feeds.hits.get("/redirect")).toBe(2);
      // ... and the service on another port of the same machine never was.
      expect([...inside.hits]).toEqual([]);
    });
  });

  describe("defence in depth", () => {
    it("a public memorial's media may sit in shared caches for minutes only, and is refused once the memorial turns private", async () => {
      const { api } = await registerMember(server.url);
      const memorial = await api.post("/api/memorials", { firstName: "Edith", lastName: "Hart", visibility: "public", isPublished: true });
      expect(memorial.status).toBe(201);
      const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 120, b: 90 } } })
        .png()
        .toBuffer();
      const media = await api.post(`/api/memorials/${memorial.json.id}/media`, {
        mediaData: `data:image/png;base64,${png.toString("base64")}`,
        fileName: "edith.png",
        fileType: "image/png",
      });
      expect(media.status).toBe(201);
      const url = new URL(media.json.mediaUrl, server.url).pathname;
      const shared = await client(server.url).get(url);
      expect(shared.status).toBe(200);
      expect(shared.headers.get("cache-control")).toBe("public, max-age=300, must-revalidate");
      expect((await api.put(`/api/memorials/${memorial.json.id}`, { visibility: "private" })).status).toBe(200);
      expect((await client(server.url).get(url)).status).toBe(404);
      expect((await api.get(url)).headers.get("cache-control")).toMatch(/^private/);
    });

    it("DATA_DIR and everything the server wrote under it is the server's alone (0700 folders, 0600 files)", async () => {
      const loose: string[] = [];
      const walk = (dir: string) => {
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
          const full = path.join(dir, entry.name);
          if ((statSync(full).mode & 0o077) !== 0) loose.push(`${full} ${(statSync(full).mode & 0o777).toString(8)}`);
          if (entry.isDirectory()) walk(full);
        }
      };
      expect(statSync(server.dataDir).mode & 0o777).toBe(0o700);
      walk(server.dataDir);
      expect(loose).toEqual([]);
      // The walk saw the stored media of the test above (and the embedded database on PGlite).
      expect(readdirSync(server.dataDir, { recursive: true }).length).toBeGreaterThan(0);
    });
  });
});
