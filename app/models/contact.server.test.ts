import { describe, expect, it } from "vitest";
import { databaseKinds, useAppDatabase } from "../../test/databases";
import { renderEmail } from "~/emails";
import { getEnv } from "~/services/env.server";
import { SUPPORT_HOURS } from "~/utils/site";
import { contactSchema, CONTACT_MESSAGES } from "~/utils/validation/contact";
import { sendContactMessage } from "./contact.server";
import { composeMail } from "./mail/compose.server";
import { type OutboxRow } from "./mail/outbox.server";
import { RATE_LIMITS } from "./rate-limit.server";

// Contact messages: every validation message, the stored message with status new, the
// acknowledgement and the support copy in the outbox (composed and rendered), and the limits.

describe("the contact form's rules", () => {
  const valid = { name: "Ann Lee", email: "ann@example.test", subject: "A question", message: "Hello, I have a question." };
  it.each([
    ["name", "", CONTACT_MESSAGES.name],
    ["name", "   ", CONTACT_MESSAGES.name],
    ["email", "not-an-email", CONTACT_MESSAGES.email],
    ["email", "", CONTACT_MESSAGES.email],
    ["subject", "", CONTACT_MESSAGES.subject],
    ["message", "Too short", CONTACT_MESSAGES.message],
    ["message", "x".repeat(5001), CONTACT_MESSAGES.messageLong],
    ["type", "complaint", CONTACT_MESSAGES.type],
    ["name", "a\u0000b", "This text contains a hidden character we cannot save. Please retype it."],
  ])("%s = %j: %s", (field, value, message) => {
    const parsed = contactSchema.safeParse({ ...valid, [field]: value });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.find((i) => i.path[0] === field)?.message).toBe(message);
  });
  it("defaults the type to general, and lower-cases the email", () => {
    expect(contactSchema.parse({ ...valid, email: "Ann@Example.TEST" })).toMatchObject({ type: "general", email: "ann@example.test" });
  });
});

let n = 0;
describe.each(databaseKinds)("contact messages on $name", (kind) => {
  const app = useAppDatabase(kind);
  const input = (email = `c${Date.now().toString(36)}${n++}@example.test`) =>
    contactSchema.parse({ name: "Ann Lee", email, subject: "About my memorial", message: "Could you help me move a photo?", type: "support" });

  it.skipIf(kind.skip)("stores the message as new and queues the acknowledgement and the support copy in the same transaction", async () => {
    const ip = `192.0.2.${n++}`;
    const result = await sendContactMessage(input(), { user: null, ip });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const stored = await app.db.prisma.contactMessage.findUniqueOrThrow({ where: { id: result.message.id } });
    expect(stored).toMatchObject({ status: "new", type: "support", name: "Ann Lee", userId: null });
    const rows = await app.db.prisma.mailOutbox.findMany({ where: { data: { equals: { messageId: stored.id } } }, orderBy: { kind: "asc" } });
    expect(rows.map((r) => [r.kind, r.to])).toEqual([
      ["contact-copy", getEnv().SUPPORT_EMAIL],
      ["contact-received", stored.email],
    ]);
    for (const row of rows) {
      const composed = await composeMail({ ...row, data: row.data as Record<string, unknown> } as OutboxRow);
      if ("skip" in composed) throw new Error(composed.skip);
      const rendered = await renderEmail(composed.kind, composed.props as never);
      if (row.kind === "contact-received") {
        // A visitor's address is not known to be theirs: the acknowledgement repeats nothing they wrote.
        expect(rendered.subject).toBe("We have your message");
        expect(rendered.text).toContain(SUPPORT_HOURS);
        for (const words of ["Could you help me move a photo?", "About my memorial", "Ann Lee"]) {
          expect(rendered.text).not.toContain(words);
          expect(rendered.html).not.toContain(words);
        }
      } else {
        expect(rendered.text).toContain("Could you help me move a photo?");
        expect(rendered.subject).toBe("[Contact: support] About my memorial");
        expect(composed.headers).toEqual({ "Reply-To": stored.email });
      }
    }
  });

  it.skipIf(kind.skip)("quotes the message back only to a member writing from their own account's address", async () => {
    const user = await app.db.prisma.user.create({ data: { email: `own${n++}@example.test`, firstName: "M", lastName: "M", password: "x" } });
    const acknowledgement = async (email: string) => {
      const result = await sendContactMessage(input(email), { user, ip: `198.51.100.${n++}` });
      if (!result.ok) throw new Error(result.message);
      const row = await app.db.prisma.mailOutbox.findFirstOrThrow({ where: { kind: "contact-received", data: { equals: { messageId: result.message.id } } } });
      const composed = await composeMail({ ...row, data: row.data as Record<string, unknown> } as OutboxRow);
      if ("skip" in composed) throw new Error(composed.skip);
      return renderEmail(composed.kind, composed.props as never);
    };
    const own = await acknowledgement(user.email);
    expect(own.subject).toBe("We have your message: About my memorial");
    expect(own.text).toContain("Could you help me move a photo?");
    const other = await acknowledgement(`someone-else${n++}@example.test`);
    expect(other.subject).toBe("We have your message");
    expect(other.text).not.toContain("Could you help me move a photo?");
  });

  it.skipIf(kind.skip)("keeps the member's id, and limits per address and per email address before storing", async () => {
    const user = await app.db.prisma.user.create({ data: { email: `m${n++}@example.test`, firstName: "M", lastName: "M", password: "x" } });
    const mine = await sendContactMessage(input(), { user, ip: `198.51.100.${n++}` });
    expect(mine.ok && (await app.db.prisma.contactMessage.findUnique({ where: { id: mine.message.id } }))?.userId).toBe(user.id);

    const ip = `203.0.113.${n++}`;
    const before = await app.db.prisma.contactMessage.count();
    const results = await Promise.all(Array.from({ length: RATE_LIMITS.contactPerIp.limit + 3 }, () => sendContactMessage(input(), { user: null, ip })));
    expect(results.filter((r) => r.ok)).toHaveLength(RATE_LIMITS.contactPerIp.limit);
    expect(results.find((r) => !r.ok)).toMatchObject({
      reason: "rate-limited",
      message: expect.stringMatching(/^You have sent several messages in a short time\. Please try again in \d+ minutes?\.$/),
    });
    expect(await app.db.prisma.contactMessage.count()).toBe(before + RATE_LIMITS.contactPerIp.limit);

    const victim = `victim${n++}@example.test`;
    const toOne = [];
    for (let i = 0; i < RATE_LIMITS.contactPerEmail.limit + 1; i++)
      toOne.push(await sendContactMessage(input(victim), { user: null, ip: `192.0.2.${100 + i}` }));
    expect(toOne.filter((r) => r.ok)).toHaveLength(RATE_LIMITS.contactPerEmail.limit);
  });
});
