import { writeBiography } from "~/models/ai-writing.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { writingAnswer } from "~/request/api.server";
import { clientIp } from "~/request/facts.server";
import { AI_LIMITS, AI_MESSAGES, biographyRequestSchema } from "~/utils/validation/ai";

// POST /api/ai/generate-biography { firstName, lastName, dateOfBirth, dateOfPassing, personalStory,
// keyQualities } → { biography, provider, providerLabel }. Members only: it sits
// on the Create and Edit screens. First and last name are required; a writer that fails or times
// out gives "Failed to generate biography. Please try again." as a 502.

const api = apiRoute({
  POST: endpoint({
    access: "member",
    body: biographyRequestSchema,
    maxBodyBytes: AI_LIMITS.bodyBytes,
    tooLargeMessage: AI_MESSAGES.tooLarge,
    handle: async ({ request, user, body }) => writingAnswer(await writeBiography(body, { user, ip: clientIp(request) }), "biography"),
  }),
});
export const loader = api.loader;
export const action = api.action;
