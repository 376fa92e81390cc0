import { writeTribute } from "~/models/ai-writing.server";
import { apiRoute } from "~/request/api-route.server";
import { writingEndpoint } from "~/request/writing-endpoint.server";
import { tributeRequestSchema } from "~/utils/validation/ai";

// POST /api/ai/generate-tribute, either { personalDetails: { firstName, lastName },
// keyDetails } (the Edit screen's Generate AI Tribute) or { memorialInfo: { name, title, biography },
// relationship, tone, memories } (the tribute assistant) → { tribute, provider, providerLabel }.
// Open to visitors, since the assistant is (limited per address; per member when signed in). A writer
// that fails or times out gives "Failed to generate AI tribute. Please try again." as a 502.
const api = apiRoute({
  POST: writingEndpoint({ access: "public", body: tributeRequestSchema, field: "tribute", write: writeTribute }),
});
export const loader = api.loader;
export const action = api.action;
