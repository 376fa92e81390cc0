import { sendContactMessage } from "~/models/contact.server";
import { apiRoute, created, endpoint } from "~/request/api-route.server";
import { z } from "~/utils/validation/zod";
import { apiError } from "~/request/api.server";
import { clientIp } from "~/request/facts.server";
import { honeypotFilled } from "~/request/form-guard.server";
import { failingAs, refusalAnswer } from "~/request/refusal.server";
import { HONEYPOT_FIELD } from "~/utils/form-guard";
import { SUPPORT_REPLY_TIME } from "~/utils/site";
import { CONTACT_MESSAGES, contactSchema } from "~/utils/validation/contact";

// POST /api/contact with name, email, subject, message and type: stored
// with status new; the sender's acknowledgement and the support copy go through the email outbox. The same
// guard as the form (docs/decisions/015-contact-guard.md): the honeypot field, if sent filled, refuses it;
// the limits per address, per email address and per member are the use case's, for both paths.

const apiContactSchema = contactSchema.extend({ [HONEYPOT_FIELD]: z.unknown().optional() });

const api = apiRoute({
  POST: endpoint({
    access: "public",
    body: apiContactSchema,
    handle: ({ request, user, body }) =>
      failingAs(CONTACT_MESSAGES.failed, async () => {
        if (!user && honeypotFilled(body[HONEYPOT_FIELD])) return apiError(400, CONTACT_MESSAGES.honeypot);
        const result = await sendContactMessage(body, { user, ip: clientIp(request) });
        if (!result.ok) return refusalAnswer(result, CONTACT_MESSAGES.failed);
        return created({
          ...result.message,
          createdAt: result.message.createdAt.toISOString(),
          message: CONTACT_MESSAGES.sentTitle,
          description: SUPPORT_REPLY_TIME,
        });
      }),
  }),
});
export const loader = api.loader;
export const action = api.action;
