import { writeTribute } from "~/models/ai-writing.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { writingAnswer } from "~/request/api.server";
import { clientIp } from "~/request/facts.server";
import { AI_LIMITS, AI_MESSAGES, tributeRequestSchema } from "~/utils/validation/ai";

// POST /api/ai/generate-tribute, either { personalDetails: { firstName, lastName },
// keyDetails } (the Edit screen's Generate AI Tribute) or { memorialInfo: { name, title, biography },
// relationship, tone, memories } (the tribute assistant) → { tribute, provider, providerLabel }.
// Open to visitors, since the assistant is (limited per address; per member when signed in). A writer
// that fails or times out gives "Failed to generate AI tribute. Please try again." as a 502.
const api = apiRoute({
  POST: endpoint({
    access: "public",
    body: tributeRequestSchema,
    maxBodyBytes: AI_LIMITS.bodyBytes,
    tooLargeMessage: AI_MESSAGES.tooLarge,
    handle: async ({ request, user, body }) => writingAnswer(await writeTribute(body, { user, ip: clientIp(request) }), "tribute"),
  }),
});
export const loader = api.loader;
export const action = api.action;
