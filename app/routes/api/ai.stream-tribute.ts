import { hitAiRateLimit, tributeFactsFor } from "~/models/ai-writing.server";
import { findMemorialForViewer, isRecordId } from "~/models/memorials/access.server";
import type { PublicUser } from "~/models/accounts/users.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { apiError, rateLimitedAnswer } from "~/request/api.server";
import { clientIp } from "~/request/facts.server";
import { AiUnavailableError, getWritingProvider } from "~/services/ai.server";
import { AI_LIMITS, AI_MESSAGES, streamTributeRequestSchema, type StreamTributeRequest } from "~/utils/validation/ai";
import { TRIBUTE_LIMITS } from "~/utils/validation/tribute";

// POST /api/ai/stream-tribute { memorialId, relationship, tone, memories }: the tribute assistant with
// JavaScript on, answering the tribute as plain UTF-8 text while it is written, so
// the visitor sees it appear in the tribute box. Same checks, limits and facts as the form round-trip
// (app/models/ai-writing.server.ts), and only for a memorial the caller may see. Errors before the
// first words are JSON { message } (400, 404, 429, 502); a failure after them cuts the stream short,
// which the page reports as "Failed to generate tribute. Please try again.".

const api = apiRoute({
  POST: endpoint({
    access: "public",
    body: streamTributeRequestSchema,
    maxBodyBytes: AI_LIMITS.bodyBytes,
    tooLargeMessage: AI_MESSAGES.tooLarge,
    handle: ({ request, user, body }) => streamTribute(request, user, body),
  }),
});
export const loader = api.loader;
export const action = api.action;

async function streamTribute(request: Request, viewer: PublicUser | null, { memorialId, ...assistant }: StreamTributeRequest) {
  const lookup = isRecordId(memorialId) ? await findMemorialForViewer(memorialId, viewer) : null;
  if (lookup?.status !== "ok") return apiError(404, AI_MESSAGES.memorialNotFound);
  const refused = await hitAiRateLimit({ user: viewer, ip: clientIp(request) });
  if (refused) return rateLimitedAnswer(refused);

  const provider = getWritingProvider();
  const facts = tributeFactsFor(lookup.memorial, assistant);
  const pieces =
    provider.streamTribute?.(facts) ??
    (async function* () {
      yield await provider.tribute(facts);
    })();
  const iterator = pieces[Symbol.asyncIterator]();
  // The first piece is awaited before answering, so a writer that is down gets a proper 502 { message }.
  let next: IteratorResult<string> | null;
  try {
    next = await iterator.next();
  } catch (error) {
    if (error instanceof AiUnavailableError) return apiError(502, AI_MESSAGES.tributeFailed);
    throw error;
  }

  const encoder = new TextEncoder();
  let written = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const result = next ?? (await iterator.next());
        next = null;
        if (result.done) return controller.close();
        // A model may overrun what it was asked for: stop where the tribute box would.
        const room = TRIBUTE_LIMITS.contentMax - written;
        const piece = result.value.slice(0, room);
        written += piece.length;
        if (piece) controller.enqueue(encoder.encode(piece));
        if (result.value.length >= room) {
          controller.close();
          await iterator.return?.();
        }
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      // no-transform: the compression middleware would otherwise hold pieces back to fill its buffer.
      "Cache-Control": "no-store, no-transform",
      "X-Accel-Buffering": "no",
      "X-Writing-Provider": provider.name,
      "X-Writing-Provider-Label": provider.label.replace(/[^\x20-\x7e]/g, "?"),
    },
  });
}
