import { writeBiography } from "~/models/ai-writing.server";
import { apiRoute } from "~/request/api-route.server";
import { writingEndpoint } from "~/request/writing-endpoint.server";
import { biographyRequestSchema } from "~/utils/validation/ai";

// POST /api/ai/generate-biography { firstName, lastName, dateOfBirth, dateOfPassing, personalStory,
// keyQualities } → { biography, provider, providerLabel }. Members only: it sits
// on the Create and Edit screens. First and last name are required; a writer that fails or times
// out gives "Failed to generate biography. Please try again." as a 502.

const api = apiRoute({
  POST: writingEndpoint({ access: "member", body: biographyRequestSchema, field: "biography", write: writeBiography }),
});
export const loader = api.loader;
export const action = api.action;
