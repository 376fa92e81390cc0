import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SUBSCRIPTION_MESSAGES } from "~/utils/plans";
import { hashPassword } from "~/services/password.server";
import { VAULT_LIMITS, VAULT_MESSAGES } from "~/utils/vault-rules";
import { client, registerMember, serverDatabases, startServer, type Client, type TestServer } from "./http";

// Plans and the vault over real HTTP on the built server with the built-in test provider: a plan is
// bought through the /api as a client would (create the payment,
// pay it, complete the upgrade), forged and replayed completions grant nothing, cancelling is real, and
// the vault that plan opens keeps its lock, its file rules and its owner's files to its owner.

const PDF = "%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\nThe family's will.\n%%EOF\n";
const dataUrl = (type: string, content: string | Buffer) => `data:${type};base64,${Buffer.from(content).toString("base64")}`;

describe.each(serverDatabases())("plans and the vault over the /api on %s", (database) => {
  let server: TestServer;
  /** A Forever Plus member whose vault is 3 MB short of full (written straight into the database). */
  const nearlyFull = { email: `full-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@example.test`, password: "Correct1horse" };
  beforeAll(async () => {
    server = await startServer(
      {},
      {
        database,
        prepare: async (db) => {
          const user = await db.prisma.user.create({
            data: {
              email: nearlyFull.email,
              firstName: "Full",
              lastName: "Vault",
              password: await hashPassword(nearlyFull.password),
              subscriptionPlan: "forever_plus",
            },
          });
          const fileSize = 10 * 1024 * 1024;
          const count = Math.floor((VAULT_LIMITS.quotaBytes - 3 * 1024 * 1024) / fileSize);
          const rest = VAULT_LIMITS.quotaBytes - 3 * 1024 * 1024 - count * fileSize;
          await db.prisma.vaultFile.createMany({
            data: [...Array.from({ length: count }, () => fileSize), rest].map((size, i) => ({
              userId: user.id,
              fileName: `vault/${user.id}/f${i}`,
              originalFileName: `old-${i}.pdf`,
              fileSize: size,
              fileType: "application/pdf",
              category: "document",
              storageKey: `vault/${user.id}/f${i}`,
              encryptionKey: "unused",
            })),
          });
        },
      },
    );
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** A member who buys a plan as a client does, with the built-in provider's Pay call for the card. */
  async function memberOn(planId: "forever" | "forever_plus", paymentType: "full" | "monthly" = "full") {
    const { api, id } = await registerMember(server.url);
    const created = await api.post("/api/create-subscription-payment", { planId, paymentType });
    expect(created.status).toBe(200);
    const paid = await api.post("/api/test-payments/pay", { paymentIntentId: created.json.paymentIntentId });
    expect(paid.status).toBe(200);
    return { api, id, paymentIntentId: created.json.paymentIntentId as string };
  }

  it("ten Continue to Payment at once give one payment; a tab left open never downgrades and is refunded; ten completions grant once", async () => {
    const { api } = await registerMember(server.url);
    const starts = await Promise.all(
      Array.from({ length: 10 }, () => api.post("/api/create-subscription-payment", { planId: "forever", paymentType: "full" })),
    );
    expect(starts.map((r) => r.status)).toEqual(starts.map(() => 200));
    const ids = new Set(starts.map((r) => r.json.paymentIntentId as string));
    expect(ids.size).toBe(1);
    const [forever] = [...ids];

    // Forever Plus is bought in another tab meanwhile, its completion asked ten times at once.
    const plus = (await api.post("/api/create-subscription-payment", { planId: "forever_plus", paymentType: "full" })).json.paymentIntentId as string;
    const paid = await Promise.all(Array.from({ length: 10 }, () => api.post("/api/test-payments/pay", { paymentIntentId: plus })));
    expect(paid.map((r) => r.status)).toEqual(paid.map(() => 200));
    expect(paid.filter((r) => r.json.alreadyDone === false)).toHaveLength(1);
    const completions = await Promise.all(Array.from({ length: 5 }, () => api.post("/api/complete-subscription-upgrade", { paymentIntentId: plus })));
    expect(completions.map((r) => [r.status, r.json.alreadyDone])).toEqual(completions.map(() => [200, true]));

    // The older tab pays Forever: refused as a step down, refunded, the plan unchanged.
    const stale = await api.post("/api/test-payments/pay", { paymentIntentId: forever });
    expect(stale.status).toBe(409);
    expect(stale.json.message).toMatch(
      /^You already have the Forever Plus \(with Vault\) plan, which includes this one, so this payment changed nothing\. Your payment of £279\.00 has been refunded\.$/,
    );
    expect(await api.post("/api/complete-subscription-upgrade", { paymentIntentId: forever })).toMatchObject({
      status: 409,
      json: { message: stale.json.message },
    });
    expect((await api.get("/api/auth/user")).json).toMatchObject({ subscriptionPlan: "forever_plus", subscriptionExpiryDate: null });
  });

  it("grants a plan only for its own paid payment, once, and says why not otherwise", async () => {
    const visitor = client(server.url);
    expect((await visitor.post("/api/create-subscription-payment", { planId: "forever" })).status).toBe(401);
    const { api } = await registerMember(server.url);
    const bad = await api.post("/api/create-subscription-payment", { planId: "diamond" });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe("planId must be free, forever or forever_plus");
    const free = await api.post("/api/create-subscription-payment", { planId: "free" });
    expect(free).toMatchObject({ status: 400, json: { message: SUBSCRIPTION_MESSAGES.downgrade } });

    const created = await api.post("/api/create-subscription-payment", { planId: "forever_plus", paymentType: "full" });
    expect(created.json).toMatchObject({ amount: 42_900, currency: "gbp", provider: "test", isTest: true });
    expect(created.json.clientSecret).toEqual(expect.any(String));
    const paymentIntentId = created.json.paymentIntentId;
    // Not paid: nothing granted.
    expect(await api.post("/api/complete-subscription-upgrade", { paymentIntentId })).toMatchObject({
      status: 402,
      json: { message: SUBSCRIPTION_MESSAGES.unpaid },
    });
    // Someone else cannot pay it or claim it.
    const { api: other } = await registerMember(server.url);
    expect((await other.post("/api/test-payments/pay", { paymentIntentId })).status).toBe(404);
    expect((await other.post("/api/complete-subscription-upgrade", { paymentIntentId })).status).toBe(404);
    expect((await api.post("/api/complete-subscription-upgrade", { paymentIntentId: "testpay_forged" })).status).toBe(404);

    expect(await api.post("/api/test-payments/pay", { paymentIntentId })).toMatchObject({ status: 200, json: { status: "succeeded", planId: "forever_plus" } });
    expect((await api.get("/api/auth/user")).json).toMatchObject({ subscriptionPlan: "forever_plus", subscriptionExpiryDate: null });
    // Completing it again changes nothing; the other member is still on the free plan.
    expect(await api.post("/api/complete-subscription-upgrade", { paymentIntentId })).toMatchObject({
      status: 200,
      json: { planId: "forever_plus", alreadyDone: true },
    });
    expect((await other.post("/api/complete-subscription-upgrade", { paymentIntentId })).status).toBe(404);
    expect((await other.get("/api/auth/user")).json.subscriptionPlan).toBe("free");
    expect(await api.post("/api/complete-subscription-upgrade", { paymentIntentId, planId: "forever" })).toMatchObject({
      status: 409,
      json: { message: SUBSCRIPTION_MESSAGES.wrongPlan },
    });

    // Paid in full: nothing to cancel, said plainly.
    expect(await api.post("/api/cancel-subscription", {})).toMatchObject({ status: 409, json: { message: SUBSCRIPTION_MESSAGES.paidInFull } });
  });

  it("takes the first of 36 instalments for Forever monthly, and cancelling keeps the month paid for", async () => {
    const { api } = await registerMember(server.url);
    const created = await api.post("/api/create-subscription-payment", { planId: "forever", paymentType: "monthly" });
    expect(created.json.amount).toBe(775);
    await api.post("/api/test-payments/pay", { paymentIntentId: created.json.paymentIntentId });
    const user = (await api.get("/api/auth/user")).json;
    expect(user.subscriptionPlan).toBe("forever");
    expect(Date.parse(user.subscriptionExpiryDate)).toBeGreaterThan(Date.now() + 30 * 86_400_000);
    const cancelled = await api.post("/api/cancel-subscription", {});
    expect(cancelled.status).toBe(200);
    expect(cancelled.json.message).toMatch(/^No more payments will be taken\. Your plan stays active until /);
    const until = Date.parse(cancelled.json.accessUntil);
    expect(until).toBeGreaterThan(Date.now() + 27 * 86_400_000);
    expect(Date.parse((await api.get("/api/auth/user")).json.subscriptionExpiryDate)).toBe(until);
  });

  it("keeps the vault closed to Forever and to the free plan, with subscriptionRequired", async () => {
    const { api: forever } = await memberOn("forever");
    for (const api of [forever, (await registerMember(server.url)).api]) {
      expect(await api.get("/api/vault/password")).toMatchObject({
        status: 402,
        json: { subscriptionRequired: true, message: VAULT_MESSAGES.subscriptionRequired },
      });
      const upload = await api.post("/api/vault/files", { fileName: "will.pdf", fileType: "application/pdf", fileData: dataUrl("application/pdf", PDF) });
      expect(upload).toMatchObject({ status: 402, json: { subscriptionRequired: true } });
    }
  });

  it("keeps a Forever Plus member's files to them, locked until verified in each session, as downloads only", async () => {
    const { api } = await memberOn("forever_plus");
    expect((await api.get("/api/vault/password")).json).toEqual({ hasPassword: false });
    const uploaded = await api.post("/api/vault/files", { fileName: "will.pdf", fileType: "application/pdf", fileData: dataUrl("application/pdf", PDF) });
    expect(uploaded).toMatchObject({ status: 201, json: { originalFileName: "will.pdf", fileSize: PDF.length, category: "document", askForPassword: true } });
    const id = uploaded.json.id;

    const download = await api.get(`/api/vault/files/${id}/download`);
    expect(download.status).toBe(200);
    expect(download.text).toBe(PDF);
    expect(download.headers.get("content-disposition")).toBe(`attachment; filename="will.pdf"; filename*=UTF-8''will.pdf`);
    expect(download.headers.get("cache-control")).toContain("no-store");
    expect(download.headers.get("x-content-type-options")).toBe("nosniff");

    // Another member, even on Forever Plus, finds nothing.
    const { api: stranger } = await memberOn("forever_plus");
    expect((await stranger.get(`/api/vault/files/${id}/download`)).status).toBe(404);
    expect((await stranger.delete(`/api/vault/files/${id}`)).status).toBe(404);

    // The vault's file rules: a PDF renamed .png, an .exe, an SVG with a script, 11 MB.
    const refusals: [string, string, string | Buffer, number, string][] = [
      ["photo.png", "image/png", PDF, 415, VAULT_MESSAGES.invalidType],
      ["setup.exe", "application/x-msdownload", "MZ\x90\x00", 415, VAULT_MESSAGES.invalidType],
      ["logo.svg", "image/svg+xml", '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 415, VAULT_MESSAGES.invalidType],
      ["big.pdf", "application/pdf", Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(11 * 1024 * 1024, 32)]), 413, VAULT_MESSAGES.tooLarge],
    ];
    for (const [fileName, fileType, content, status, message] of refusals) {
      const refused = await api.post("/api/vault/files", { fileName, fileType, fileData: dataUrl(fileType, content) });
      expect(refused.status, fileName).toBe(status);
      expect(refused.json.message, fileName).toContain(message);
    }

    // A weak password is refused; a strong one locks every other session until it is given there.
    expect(await api.post("/api/vault/password", { password: "weakpass" })).toMatchObject({ status: 400, json: { message: VAULT_MESSAGES.passwordTooWeak } });
    expect((await api.post("/api/vault/password", { password: "Str0ng-pass" })).status).toBe(201);
    const email = (await api.get("/api/auth/user")).json.email;
    const second: Client = client(server.url);
    expect((await second.post("/api/auth/login", { email, password: "Correct1horse" })).status).toBe(200);
    expect(await second.get("/api/vault/files")).toMatchObject({ status: 423, json: { locked: true } });
    expect((await second.get(`/api/vault/files/${id}/download`)).status).toBe(423);
    expect((await second.delete(`/api/vault/files/${id}`)).status).toBe(423);
    expect(await second.post("/api/vault/verify", { password: "Wrong-pass1" })).toMatchObject({
      status: 200,
      json: { valid: false, message: VAULT_MESSAGES.invalidPassword },
    });
    expect(await second.post("/api/vault/verify", { password: "Str0ng-pass" })).toMatchObject({ status: 200, json: { valid: true } });
    expect((await second.get("/api/vault/files")).json.map((f: { id: string }) => f.id)).toEqual([id]);
    expect((await second.delete(`/api/vault/files/${id}`)).status).toBeLessThan(300);
    expect((await second.get("/api/vault/files")).json).toEqual([]);
    // Signing out ends the unlock: a new sign-in is locked again.
    await second.post("/api/auth/logout", {});
    expect((await second.post("/api/auth/login", { email, password: "Correct1horse" })).status).toBe(200);
    expect((await second.get("/api/vault/files")).status).toBe(423);
  });

  it("the lock hides the vault's file names from the account download too, and a name's quotes and brackets are percent-encoded", async () => {
    const { api } = await memberOn("forever_plus");
    const name = "Mum's diagnosis (draft)*.pdf";
    const uploaded = await api.post("/api/vault/files", { fileName: name, fileType: "application/pdf", fileData: dataUrl("application/pdf", PDF) });
    expect(uploaded.status).toBe(201);
    const download = await api.get(`/api/vault/files/${uploaded.json.id}/download`);
    expect(download.headers.get("content-disposition")).toBe(
      `attachment; filename="Mum's diagnosis (draft)*.pdf"; filename*=UTF-8''Mum%27s%20diagnosis%20%28draft%29%2A.pdf`,
    );
    expect((await api.post("/api/vault/password", { password: "Str0ng-pass" })).status).toBe(201);

    const email = (await api.get("/api/auth/user")).json.email;
    const other = client(server.url);
    expect((await other.post("/api/auth/login", { email, password: "Correct1horse" })).status).toBe(200);
    const locked = await other.get("/account/export");
    expect(locked.status).toBe(200);
    expect(locked.text).not.toContain("diagnosis");
    expect(locked.json.vaultFiles).toEqual({ locked: true, count: 1, note: VAULT_MESSAGES.exportLocked });
    // The session that knows the password gets the names.
    expect((await other.post("/api/vault/verify", { password: "Str0ng-pass" })).json.valid).toBe(true);
    const unlocked = await other.get("/account/export");
    expect(unlocked.json.vaultFiles.map((f: { originalFileName: string }) => f.originalFileName)).toEqual([name]);
  });

  it("the right vault password never counts against the unlock limit; wrong ones still do", async () => {
    const { api } = await memberOn("forever_plus");
    expect((await api.post("/api/vault/password", { password: "Str0ng-pass" })).status).toBe(201);
    const statuses: unknown[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await api.post("/api/vault/verify", { password: "Str0ng-pass" })).json.valid);
    expect(statuses).toEqual(Array(8).fill(true));
    const wrong = [];
    for (let i = 0; i < 6; i++) wrong.push((await api.post("/api/vault/verify", { password: "Wrong-pass1" })).status);
    expect(wrong).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it("parallel uploads never pass the 500 MB quota", async () => {
    const api = client(server.url);
    expect((await api.post("/api/auth/login", nearlyFull)).status).toBe(200);
    // 3 MB left, 8 files of 1 MB at once: at most 3 fit.
    const file = Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(1024 * 1024 - 9, 32)]);
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        client(server.url, { cookie: api.cookie }).post("/api/vault/files", {
          fileName: `part-${i}.pdf`,
          fileType: "application/pdf",
          fileData: dataUrl("application/pdf", file),
        }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201).length, String(statuses)).toBe(3);
    expect(
      statuses.filter((s) => s !== 201).every((s) => s === 413 || s === 507 || s === 400),
      String(statuses),
    ).toBe(true);
    const listed = await api.get("/api/vault/files");
    expect(listed.status).toBe(200);
  });
});
