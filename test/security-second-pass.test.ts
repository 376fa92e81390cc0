import { randomBytes } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "~/services/password.server";
import { RATE_LIMITS } from "~/models/rate-limit.server";
import { CONTACT_MESSAGES } from "~/utils/validation/contact";
import { client, rawRequest, registerMember, serverDatabases, startServer, type TestServer } from "./http";
import { startSmtp, type TestSmtp } from "./smtp-server";

// Issue 25, attacked over real HTTP against the built server, on PGlite and PostgreSQL.
// §1: the client writes the left of X-Forwarded-For. With TRUST_PROXY=true (one proxy, as these test
// servers run) only the right-most hop, the one our proxy appended, is the client's address: a new
// made-up first hop on every request neither escapes a per-address limit nor reaches the audit log.
// §7: the contact form and POST /api/contact mail no one an attacker's words, and share one guard.

const PASSWORD = "Correct1horse";
const randomIp = () => `10.${[0, 0, 0].map(() => randomBytes(1)[0]).join(".")}`;
const spoofed = () => `${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;

describe.each(serverDatabases())("issue 25 over HTTP on %s", (database) => {
  let server: TestServer;
  let smtp: TestSmtp;
  const adminEmail = `admin-${randomBytes(4).toString("hex")}@example.test`;
  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startServer(
      { SMTP_URL: smtp.url, MAIL_FROM: "Everlight <no-reply@everlight.test>" },
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
    await smtp?.stop();
  });
  const mailTo = async (address: string) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const index = smtp.recipients.findIndex((r) => r.includes(address));
      if (index >= 0) return smtp.received[index];
      if (Date.now() > deadline) throw new Error(`No email to ${address}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

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

  describe("§7 the contact form is no mail relay", () => {
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

  describe("§9 defence in depth", () => {
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
