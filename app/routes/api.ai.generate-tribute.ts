import type { Route } from "./+types/api.ai.generate-tribute";
import { hitAiRateLimit, rateLimitedMessage } from "~/models/ai-tribute.server";
import { AiUnavailableError, getWritingProvider } from "~/services/ai.server";
import { apiError, json, methodNotAllowed, readJsonBody, withApiErrors } from "~/services/api.server";
import { getOptionalUser } from "~/services/auth.server";
import { AI_LIMITS, AI_MESSAGES, tributeRequestSchema } from "~/utils/validation/ai";

// POST /api/ai/generate-tribute (memorial-core.md §7), either { personalDetails: { firstName, lastName },
// keyDetails } (the Edit screen's Generate AI Tribute) or { memorialInfo: { name, title, biography },
// relationship, tone, memories } (the tribute assistant) → { tribute, provider, providerLabel }.
// Open to visitors, since the assistant is (limited per address; per member when signed in). A writer
// that fails or times out gives "Failed to generate AI tribute. Please try again." (§8) as a 502.

export function loader() {
  return methodNotAllowed("POST");
}

export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return withApiErrors(async () => {
    const facts = await readJsonBody(request, tributeRequestSchema, { maxBytes: AI_LIMITS.bodyBytes, tooLargeMessage: AI_MESSAGES.tooLarge });
    const limit = await hitAiRateLimit(request, await getOptionalUser(request));
    if (!limit.allowed) return apiError(429, rateLimitedMessage(limit), {}, { headers: { "Retry-After": String(limit.retryAfterSeconds) } });
    const provider = getWritingProvider();
    try {
      const tribute = await provider.tribute(facts);
      return json({ tribute, provider: provider.name, providerLabel: provider.label });
    } catch (error) {
      if (error instanceof AiUnavailableError) return apiError(502, AI_MESSAGES.tributeFailed);
      throw error;
    }
  });
}
