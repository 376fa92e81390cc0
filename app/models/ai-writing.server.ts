import { describeRetry, hitRateLimit, RATE_LIMITS, type RateLimited } from "~/models/rate-limit.server";
import { AiUnavailableError, getWritingProvider, type WritingProvider } from "~/services/ai.server";
import { fullName } from "~/utils/text";
import { AI_LIMITS, AI_MESSAGES, type BiographyFacts, type TributeAssistantInput, type TributeFacts } from "~/utils/validation/ai";
import { TRIBUTE_LIMITS } from "~/utils/validation/tribute";

// The AI writing helpers: one use case per kind of writing, shared by
// the /api calls and the forms' round trips without JavaScript. Each counts one use against
// the limits before the writer is asked, and says which writer wrote it. Nothing written is saved here:
// it goes into a form, and becomes part of a memorial or a tribute only when its author sends that.

/** Who is asking: per member when signed in, per address for visitors (the tribute assistant is open to them). */
export type Writer = { user: { id: string } | null; ip: string };
export type WrittenBy = { provider: WritingProvider["name"]; label: string };
export type WritingResult = { ok: true; text: string; writtenBy: WrittenBy } | RateLimited | { ok: false; reason: "unavailable"; message: string };

/** Counts one use of a writing helper: null while under the limit, else the refusal to show. */
export async function hitAiRateLimit(who: Writer): Promise<RateLimited | null> {
  const limit = who.user ? await hitRateLimit(RATE_LIMITS.aiPerUser, who.user.id) : await hitRateLimit(RATE_LIMITS.aiPerIp, who.ip);
  if (limit.allowed) return null;
  return {
    ok: false,
    reason: "rate-limited",
    retryAfterSeconds: limit.retryAfterSeconds,
    message: `${AI_MESSAGES.rateLimited} ${describeRetry(limit.retryAfterSeconds)}`,
  };
}

async function write(who: Writer, failed: string, provider: WritingProvider, compose: (p: WritingProvider) => Promise<string>): Promise<WritingResult> {
  const refused = await hitAiRateLimit(who);
  if (refused) return refused;
  try {
    return { ok: true, text: await compose(provider), writtenBy: { provider: provider.name, label: provider.label } };
  } catch (error) {
    if (error instanceof AiUnavailableError) return { ok: false, reason: "unavailable", message: failed };
    throw error;
  }
}

/** Generate AI Biography: the Create and Edit screens, and POST /api/ai/generate-biography. */
export function writeBiography(facts: BiographyFacts, who: Writer, provider: WritingProvider = getWritingProvider()) {
  return write(who, AI_MESSAGES.biographyFailed, provider, (p) => p.biography(facts));
}

/** Generate AI Tribute and the tribute assistant: the Edit screen, the memorial page and POST /api/ai/generate-tribute. */
export function writeTribute(facts: TributeFacts, who: Writer, provider: WritingProvider = getWritingProvider(), failed: string = AI_MESSAGES.tributeFailed) {
  return write(who, failed, provider, (p) => p.tribute(facts));
}

export type MemorialFacts = { firstName: string; lastName: string; title: string | null; biography: string | null };

/** The facts a writer gets for a visitor's tribute: the memorial's, then the visitor's own. */
export function tributeFactsFor(memorial: MemorialFacts, input: TributeAssistantInput): TributeFacts {
  return {
    name: fullName(memorial),
    firstName: memorial.firstName.trim(),
    title: memorial.title ?? undefined,
    // Background only, and bounded like any other fact (a biography may run to 20,000 characters).
    biography: memorial.biography ? fitText(memorial.biography, AI_LIMITS.text) : undefined,
    ...input,
  };
}

/**
 * A written tribute cut to fit the tribute box (a model may overrun what it was asked for): at the
 * last sentence end that fits, else at the last space.
 */
export function fitText(text: string, max: number = TRIBUTE_LIMITS.contentMax): string {
  const t = text.trim();
  if (t.length <= max) return t;
  const head = t.slice(0, max);
  const sentenceEnd = Math.max(head.lastIndexOf(". "), head.lastIndexOf("! "), head.lastIndexOf("? "));
  if (sentenceEnd > max / 2) return head.slice(0, sentenceEnd + 1);
  const space = head.lastIndexOf(" ");
  return (space > 0 ? head.slice(0, space) : head).trimEnd();
}
