import type { SubmissionResult } from "@conform-to/react";
import { parseForm } from "~/request/form.server";
import { fitText, tributeFactsFor, writeTribute, type MemorialFacts, type Writer } from "~/models/ai-writing.server";
import { getWritingProvider, type WritingProvider } from "~/services/ai.server";
import { AI_MESSAGES, tributeAssistantSchema, type AssistantField, type AssistantResult } from "~/utils/validation/ai";

// The memorial page's tribute assistant without JavaScript: the screen's
// server half, beside its route. The writing itself is the writeTribute use case (models/ai-writing),
// shared with POST /api/ai/stream-tribute and /api/ai/generate-tribute.

export type DraftResult = {
  status: number;
  /** For the Leave Tribute form: what it shows now (name and email as typed; the tribute box). */
  tribute: SubmissionResult<string[]>;
  refusal: string | null;
  assistant: AssistantResult;
};

/**
 * The memorial page's "ai-tribute" intent without JavaScript: checks the assistant's three fields,
 * writes the tribute and hands the form back with it in the tribute box and everything else the
 * visitor typed kept. Nothing is saved. (The page's form guard has already turned bots away.)
 */
export async function draftTributeWithAi(
  form: FormData,
  {
    memorial,
    who,
    refusal = null,
    provider = getWritingProvider(),
  }: { memorial: MemorialFacts; who: Writer; refusal?: string | null; provider?: WritingProvider },
): Promise<DraftResult> {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : "";
  };
  const values = { relationship: text("relationship"), tone: text("tone"), memories: text("memories") };
  const typed = { authorName: text("authorName"), authorEmail: text("authorEmail") };
  const answer = (status: number, content: string, assistant: Partial<AssistantResult>): DraftResult => ({
    status,
    // No status and no errors: the tribute form shows these values as they are, without complaining
    // about the fields the visitor has not filled in yet.
    tribute: { initialValue: { ...typed, content } },
    refusal,
    assistant: { values, errors: null, failure: null, writtenBy: null, ...assistant },
  });
  // The page's spam checks refused the form (a bot fills every field): it gets its fields back, no text.
  if (refusal) return answer(400, text("content"), {});

  const submission = parseForm(form, { schema: tributeAssistantSchema });
  if (submission.status !== "success") return answer(400, text("content"), { errors: fieldErrors(submission.error) });
  const result = await writeTribute(tributeFactsFor(memorial, submission.value), who, provider, AI_MESSAGES.formTributeFailed);
  if (result.ok) return answer(200, fitText(result.text), { writtenBy: result.writtenBy });
  return answer(result.reason === "rate-limited" ? 429 : 502, text("content"), { failure: result.message });
}

const ASSISTANT_FIELDS: AssistantField[] = ["relationship", "tone", "memories"];

/** The assistant's own fields' messages: the tribute form it sits in reports its fields separately. */
function fieldErrors(error: Record<string, string[] | null> | null | undefined): Partial<Record<AssistantField, string[]>> {
  const errors: Partial<Record<AssistantField, string[]>> = {};
  for (const field of ASSISTANT_FIELDS) {
    const messages = error?.[field];
    if (messages?.length) errors[field] = messages;
  }
  return errors;
}
