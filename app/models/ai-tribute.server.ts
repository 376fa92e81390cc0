import type { SubmissionResult } from "@conform-to/react";
import { describeRetry, hitRateLimit, RATE_LIMITS, type RateLimitState } from "~/models/rate-limit.server";
import { AiUnavailableError, getWritingProvider, type WritingProvider } from "~/services/ai.server";
import { checkFormGuard } from "~/services/form-guard.server";
import { clientIp } from "~/services/request.server";
import { fullName } from "~/utils/text";
import { AI_LIMITS, AI_MESSAGES, assistantErrors, tributeAssistantSchema, type AssistantResult, type TributeAssistantInput, type TributeFacts } from "~/utils/validation/ai";
import { TRIBUTE_LIMITS, TRIBUTE_MESSAGES } from "~/utils/validation/tribute";

// The AI tribute assistant of the Leave Tribute form (memorial-core.md §2, §5, §8), the server half
// shared by the memorial page's "ai-tribute" intent (JavaScript off: a form round-trip) and
// POST /api/ai/stream-tribute (JavaScript on). The text written goes into the tribute box only; it
// becomes a tribute when the visitor presses Leave Tribute, like anything else they type.

/**
 * Counts one use of a writing helper: per member when signed in, per address for visitors (the
 * assistant is open to visitors of public memorials). Every AI route and the form go through here.
 */
export function hitAiRateLimit(request: Request, user: { id: string } | null): Promise<RateLimitState> {
  return user ? hitRateLimit(RATE_LIMITS.aiPerUser, user.id) : hitRateLimit(RATE_LIMITS.aiPerIp, clientIp(request));
}

export function rateLimitedMessage(limit: RateLimitState) {
  return `${AI_MESSAGES.rateLimited} ${describeRetry(limit.retryAfterSeconds)}`;
}

type MemorialFacts = { firstName: string; lastName: string; title: string | null; biography: string | null };

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

export type DraftResult = {
  status: number;
  /** For the Leave Tribute form: what it shows now (name and email as typed; the tribute box). */
  tribute: SubmissionResult<string[]>;
  refusal: string | null;
  assistant: AssistantResult;
};

/**
 * The "ai-tribute" intent: checks the assistant's three fields, writes the tribute and hands the
 * form back with it in the tribute box and everything else the visitor typed kept. Nothing is saved.
 */
export async function draftTributeWithAi(
  request: Request,
  form: FormData,
  { memorial, viewer, provider = getWritingProvider() }: { memorial: MemorialFacts; viewer: { id: string } | null; provider?: WritingProvider },
): Promise<DraftResult> {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : "";
  };
  const values = { relationship: text("relationship"), tone: text("tone"), memories: text("memories") };
  const typed = { authorName: text("authorName"), authorEmail: text("authorEmail") };
  const answer = (status: number, content: string, assistant: Partial<AssistantResult>, refusal: string | null = null): DraftResult => ({
    status,
    // No status and no errors: the tribute form shows these values as they are, without complaining
    // about the fields the visitor has not filled in yet.
    tribute: { initialValue: { ...typed, content } },
    refusal,
    assistant: { values, errors: null, failure: null, writtenBy: null, ...assistant },
  });

  // Bots fill every field; they get no free text (the same honeypot as the tribute itself).
  if (checkFormGuard(form) === "honeypot") return answer(400, text("content"), {}, TRIBUTE_MESSAGES.honeypot);
  const parsed = tributeAssistantSchema.safeParse(values);
  if (!parsed.success) return answer(400, text("content"), { errors: assistantErrors(parsed.error) });
  const limit = await hitAiRateLimit(request, viewer);
  if (!limit.allowed) return answer(429, text("content"), { failure: rateLimitedMessage(limit) });
  try {
    const written = fitText(await provider.tribute(tributeFactsFor(memorial, parsed.data)));
    return answer(200, written, { writtenBy: { provider: provider.name, label: provider.label } });
  } catch (error) {
    if (!(error instanceof AiUnavailableError)) throw error;
    return answer(502, text("content"), { failure: AI_MESSAGES.formTributeFailed });
  }
}
