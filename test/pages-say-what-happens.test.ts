import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "~/services/password.server";
import { client, registerMember, startServer, type Client, type TestServer } from "./http";

const ADMIN_EMAIL = "ada.admin@example.test";

// Each page says what really happens, and a new memorial or a young fund is not shown as a row of zeros:
// a draft offers nothing a visitor does (follow, a tribute, the book, sharing); the danger zone says a
// deleted memorial waits 30 days; the vault says the same thing about encryption in its header and its
// password panel; the endowment fund with no payment yet is told as a promise.

/** The page's text as a reader meets it: tags and React's markers between interpolations gone, spaces folded. */
const readable = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, " ");

describe("pages that say what happens", () => {
  let server: TestServer;
  let owner: Client;

  beforeAll(async () => {
    server = await startServer(
      {},
      {
        database: "pglite",
        prepare: async (db) => {
          await db.sql.query(`INSERT INTO "users" ("id", "email", "firstName", "lastName", "password", "isAdmin") VALUES ($1, $2, 'Ada', 'Admin', $3, true)`, [
            randomUUID(),
            ADMIN_EMAIL,
            await hashPassword("Correct1horse"),
          ]);
        },
      },
    );
    owner = (await registerMember(server.url, { firstName: "Dora", lastName: "Draft" })).api;
  });
  afterAll(async () => server?.stop());

  it("a draft offers its family nothing a visitor does; a published memorial counts only what it has", async () => {
    const draft = await owner.post("/api/memorials", { firstName: "Not", lastName: "Yet", isPublished: false, visibility: "public" });
    expect(draft.status).toBe(201);
    const page = readable((await owner.get(`/memorials/${draft.json.id}`)).text);
    expect(page).toContain("Draft");
    expect(page).toContain("Once this memorial is published, visitors can leave their tributes here, and you approve each one.");
    for (const offer of ["Leave a Tribute", "Follow", "Share this memorial", "A printed memorial book"]) expect(page).not.toContain(offer);

    const published = await owner.post("/api/memorials", { firstName: "Now", lastName: "Shown", isPublished: true, visibility: "public" });
    for (const colour of ["#16a34a", "#dc2626"]) {
      const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: colour } })
        .png()
        .toBuffer();
      const added = await owner.post(`/api/memorials/${published.json.id}/media`, {
        mediaData: `data:image/png;base64,${png.toString("base64")}`,
        fileName: "photo.png",
        fileType: "image/png",
      });
      expect(added.status, added.text).toBe(201);
    }
    const shown = readable((await owner.get(`/memorials/${published.json.id}`)).text);
    expect(shown).toContain("Tributes None yet");
    expect(shown).toContain("Photos and videos 2 photos ");
    expect(shown).not.toContain("0 videos");
    expect(shown).toContain("Leave a Tribute");
    // Its card in My Memorials says nothing of tributes or views it has not had.
    const mine = readable((await owner.get("/my-memorials")).text);
    expect(mine).toContain("Now Shown");
    expect(mine).not.toMatch(/\b0 (tributes|views)\b/);
    expect(shown).toContain("Share this memorial");
  });

  it("the danger zone says a deleted memorial can be restored for 30 days", async () => {
    const created = await owner.post("/api/memorials", { firstName: "Kept", lastName: "Safe", isPublished: true, visibility: "public" });
    const edit = readable((await owner.get(`/memorials/${created.json.id}/edit`)).text);
    expect(edit).toContain(
      "Deleting takes the memorial off the site at once, with its photos, videos and tributes. For 30 days you can restore it from My Memorials, as it was; after that it is removed for good.",
    );
  });

  it("the vault says one thing about encryption; the fund with no payment is a promise, then a figure", async () => {
    const visitor = client(server.url);
    const member = await registerMember(server.url);
    const young = readable((await member.api.get("/subscription")).text);
    expect(young).toContain("The fund is new: 15% of every Forever and Forever Plus payment goes into it, from the very first");
    expect(young).not.toContain("£0.00");

    const payment = await member.api.post("/api/create-subscription-payment", { planId: "forever_plus", paymentType: "full" });
    expect((await member.api.post("/api/test-payments/pay", { paymentIntentId: payment.json.paymentIntentId })).status).toBe(200);
    expect(readable((await member.api.get("/subscription")).text)).toMatch(
      /15% of every Forever and Forever Plus payment goes into the fund: 1 payment so far, £[\d,]+\.\d\d held today\./,
    );

    const vault = readable((await member.api.get("/vault")).text);
    expect(vault).toContain("Important documents, encrypted where they are stored, and opened only from your account.");
    // An empty vault is not "0 bytes of 500.0 MB".
    expect(vault).toContain("Your vault holds up to 500.0 MB.");
    expect(vault).not.toContain("0 bytes");
    expect(vault).not.toContain("Only you can open them");
    // The offer of a password, after the first file, says the same.
    const file = await member.api.post("/api/vault/files", {
      fileName: "will.pdf",
      fileType: "application/pdf",
      fileData: `data:application/pdf;base64,${Buffer.from("%PDF-1.4\n%%EOF\n").toString("base64")}`,
    });
    expect(file.status, file.text).toBe(201);
    // Where the first upload through the page lands.
    const prompt = readable((await member.api.get("/vault?protect")).text);
    expect(prompt).toMatch(/You are using \d+ bytes of 500\.0 MB\./);
    expect(prompt).toContain("Your files are encrypted where they are stored, whatever you choose here. A vault password adds a second lock");
    expect(prompt).not.toContain("does not encrypt the files");
    expect((await visitor.get("/vault")).status).toBe(302);
  });

  it("says a thing one way: the vault once on the Forever Plus card, one spelling of honor, one date style", async () => {
    const member = await registerMember(server.url);
    const page = (await member.api.get("/subscription")).text;
    const card = readable(page.slice(page.indexOf("Forever Plus (with Vault)"), page.indexOf("Forever Plus (with Vault)") + 3000));
    const list = card.slice(0, card.search(/Choose|Current Plan|Upgrade/));
    expect(list.match(/vault/gi)?.length, list).toBe(2); // its name, and "Vault included"
    expect(list).toContain("Vault included");
    for (const path of ["/", "/memorials/create", "/my-memorials", "/news"]) {
      const text = readable((await member.api.get(path)).text);
      expect(text, path).not.toMatch(/honour/i);
    }
    // Dates are written month first, as the memorial pages write them, in the AI writer's text too.
    const written = await member.api.post("/api/ai/generate-biography", {
      firstName: "Edith",
      lastName: "Hart",
      dateOfBirth: "1950-03-04",
      dateOfPassing: "2023-01-12",
    });
    expect(written.status, written.text).toBe(200);
    expect(written.json.biography).toContain("March 4, 1950");
    expect(written.json.biography).not.toContain("4 March 1950");
  });

  it("the administrator's lists name memorials by the person, plans by their names, and dates as the rest of the site", async () => {
    const admin = client(server.url);
    expect((await admin.post("/api/auth/login", { email: ADMIN_EMAIL, password: "Correct1horse" })).status).toBe(200);
    const created = await owner.post("/api/memorials", {
      firstName: "Listed",
      lastName: "Byname",
      title: "Forever in our hearts",
      isPublished: true,
      visibility: "public",
    });
    expect(created.status).toBe(201);
    const memorials = readable((await admin.get("/admin?q=Byname")).text);
    expect(memorials).toContain("Listed Byname Forever in our hearts");
    expect(memorials).toMatch(/created [A-Z][a-z]{2} \d{1,2}, \d{4}/);
    expect(memorials).not.toMatch(/created \d{4}-\d\d-\d\d/);
    // A new memorial is not a row of zeros there either: only what it has, then when it was made.
    expect(memorials).not.toMatch(/\b0 (tributes|photos|views)/);
    expect(memorials).toMatch(/(Published|Draft) created [A-Z][a-z]{2} \d{1,2}, \d{4}/);

    const member = await registerMember(server.url, { firstName: "Plan", lastName: "Holder" });
    const payment = await member.api.post("/api/create-subscription-payment", { planId: "forever_plus", paymentType: "full" });
    expect((await member.api.post("/api/test-payments/pay", { paymentIntentId: payment.json.paymentIntentId })).status).toBe(200);
    const users = readable((await admin.get("/admin/users?q=Holder")).text);
    expect(users).toContain("plan: Forever Plus (with Vault)");
    expect(users).not.toContain("forever_plus");
    expect(users).toMatch(/joined [A-Z][a-z]{2} \d{1,2}, \d{4}/);
  });
});
