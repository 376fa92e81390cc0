import type { Route } from "./+types/api.ai.generate-biography";
import { hitAiRateLimit, rateLimitedMessage } from "~/models/ai-tribute.server";
import { AiUnavailableError, getWritingProvider } from "~/services/ai.server";
import { apiError, json, methodNotAllowed, readJsonBody, requireApiUser, withApiErrors } from "~/services/api.server";
import { AI_LIMITS, AI_MESSAGES, biographyRequestSchema } from "~/utils/validation/ai";

// POST /api/ai/generate-biography { firstName, lastName, dateOfBirth, dateOfPassing, personalStory,
// keyQualities } → { biography, provider, providerLabel } (memorial-core.md §7). Members only: it sits
// on the Create and Edit screens. First and last name are required (§5); a writer that fails or times
// out gives the spec's "Failed to generate biography. Please try again." (§8) as a 502.

export function loader() {
  return methodNotAllowed("POST");
}

export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return withApiErrors(async () => {
    const user = await requireApiUser(request);
    const facts = await readJsonBody(request, biographyRequestSchema, { maxBytes: AI_LIMITS.bodyBytes, tooLargeMessage: AI_MESSAGES.tooLarge });
    const limit = await hitAiRateLimit(request, user);
    if (!limit.allowed) return apiError(429, rateLimitedMessage(limit), {}, { headers: { "Retry-After": String(limit.retryAfterSeconds) } });
    const provider = getWritingProvider();
    try {
      const biography = await provider.biography(facts);
      return json({ biography, provider: provider.name, providerLabel: provider.label });
    } catch (error) {
      if (error instanceof AiUnavailableError) return apiError(502, AI_MESSAGES.biographyFailed);
      throw error;
    }
  });
}
