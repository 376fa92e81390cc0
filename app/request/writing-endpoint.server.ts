import type { z } from "zod";
import type { Writer, WritingResult } from "~/models/ai-writing.server";
import { AI_LIMITS, AI_MESSAGES } from "~/utils/validation/ai";
import { writingAnswer } from "./api.server";
import { endpoint } from "./api-route.server";
import { clientIp } from "./facts.server";

/**
 * The POST of an AI writer (biography, tribute): a JSON body within the writers' own bound, the caller
 * (member and address) for their limits, and the text written under `field`, or why not, as the answer.
 */
export function writingEndpoint<const A extends "public" | "member", S extends z.ZodType>({
  access,
  body,
  field,
  write,
}: {
  access: A;
  body: S;
  field: "biography" | "tribute";
  write: (facts: z.output<S>, who: Writer) => Promise<WritingResult>;
}) {
  return endpoint({
    access,
    body,
    maxBodyBytes: AI_LIMITS.bodyBytes,
    tooLargeMessage: AI_MESSAGES.tooLarge,
    // The body is the schema's output; endpoint() names it through a conditional type that TypeScript
    // cannot resolve while the schema is still generic.
    handle: async ({ request, user, body: facts }) => writingAnswer(await write(facts as z.output<S>, { user, ip: clientIp(request) }), field),
  });
}
