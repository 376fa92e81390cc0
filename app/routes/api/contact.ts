import { sendContactMessage } from "~/models/contact.server";
import { apiRoute, created, endpoint } from "~/request/api-route.server";
import { clientIp } from "~/request/facts.server";
import { failingAs, refusalAnswer } from "~/request/refusal.server";
import { SUPPORT_REPLY_TIME } from "~/utils/site";
import { CONTACT_MESSAGES, contactSchema } from "~/utils/validation/contact";

// POST /api/contact with name, email, subject, message and type (commerce-and-accounts.md §5, §7): stored
// with status new; the sender's acknowledgement and the support copy go through the email outbox. Limited
// per address, per email address and per member, like the form (which also has the anonymous form checks).

const api = apiRoute({
  POST: endpoint({
    access: "public",
    body: contactSchema,
    handle: ({ request, user, body }) =>
      failingAs(CONTACT_MESSAGES.failed, async () => {
        const result = await sendContactMessage(body, { user, ip: clientIp(request) });
        if (!result.ok) return refusalAnswer(result, CONTACT_MESSAGES.failed);
        return created({ ...result.message, createdAt: result.message.createdAt.toISOString(), message: CONTACT_MESSAGES.sentTitle, description: SUPPORT_REPLY_TIME });
      }),
  }),
});
export const loader = api.loader;
export const action = api.action;
