import { prisma } from "~/services/db.server";
import type { ContactInput } from "~/utils/validation/contact";

import { describeRetry, hitRateLimit, RATE_LIMITS, type RateLimited } from "./rate-limit.server";
import { getEnv } from "~/services/env.server";
import { queueMail, type Db } from "./mail/outbox.server";

// Contact messages: one use case for the /contact form and POST /api/contact. The message is stored with status
// new, and in the same transaction its sender's acknowledgement and the support address's copy are
// written to the email outbox, so neither is lost nor sent for a message that was not stored.

export type SendContactResult = { ok: true; message: { id: string; status: string; type: string; createdAt: Date } } | RateLimited;

/**
 * Limits are counted before anything is stored: per address (everyone), per member, and per email
 * address typed (each message mails that address, so the form must not be a way to flood someone's inbox).
 */
export async function sendContactMessage(input: ContactInput, from: { user: { id: string } | null; ip: string }): Promise<SendContactResult> {
  const hits = await Promise.all([
    hitRateLimit(RATE_LIMITS.contactPerIp, from.ip),
    hitRateLimit(RATE_LIMITS.contactPerEmail, input.email),
    from.user ? hitRateLimit(RATE_LIMITS.contactPerUser, from.user.id) : null,
  ]);
  const refused = hits.filter((h) => h && !h.allowed);
  if (refused.length) {
    const retryAfterSeconds = Math.max(...refused.map((h) => h!.retryAfterSeconds));
    return {
      ok: false,
      reason: "rate-limited",
      retryAfterSeconds,
      message: `You have sent several messages in a short time. ${describeRetry(retryAfterSeconds)}`,
    };
  }
  const message = await prisma().$transaction(async (tx) => {
    const stored = await tx.contactMessage.create({
      data: {
        name: input.name,
        email: input.email,
        subject: input.subject,
        message: input.message,
        type: input.type,
        status: "new",
        userId: from.user?.id ?? null,
      },
      select: { id: true, email: true, status: true, type: true, createdAt: true },
    });
    await queueContactMail(tx, stored);
    return stored;
  });
  return { ok: true, message: { id: message.id, status: message.status, type: message.type, createdAt: message.createdAt } };
}

/** A contact message was stored: its sender gets an acknowledgement and the support address a copy. */
export async function queueContactMail(db: Db, message: { id: string; email: string }) {
  await queueMail(db, { to: message.email, kind: "contact-received", data: { messageId: message.id } });
  await queueMail(db, { to: getEnv().SUPPORT_EMAIL, kind: "contact-copy", data: { messageId: message.id } });
}
