import { z } from "zod";
import type { Route } from "./+types/api.memorials.$id.share";
import { canViewMemorial, isRecordId, recordShare, SHARE_TYPES } from "~/models/memorial.server";
import { apiError, json, methodNotAllowed, readJsonBody, withApiErrors } from "~/services/api.server";
import { getOptionalUser } from "~/services/auth.server";
import type { Prisma } from "~/generated/prisma/client";
import { jsonHasControlCharacters, TEXT_MESSAGES } from "~/utils/validation/text-rules";

// POST /api/memorials/{id}/share { shareType, shareData? } (memorial-core.md §3 "Memorial share"):
// records a share by anyone who may see the memorial, signed in or not. The page's share buttons send it
// with navigator.sendBeacon, whose body may arrive as text/plain: such a body is read as JSON too.

const NOT_FOUND = "Memorial not found";
const SHARE_TYPE = "shareType must be facebook, twitter or copy_link";

const bodySchema = z.object({
  shareType: z.enum(SHARE_TYPES, { error: SHARE_TYPE }),
  shareData: z.json().refine((v) => !jsonHasControlCharacters(v), TEXT_MESSAGES.control).optional().nullable(),
});

/** The same request, with a text/plain body labelled as the JSON it holds (sendBeacon with a string). */
function asJson(request: Request): Request {
  if (!/^text\/plain\s*(?:;|$)/i.test(request.headers.get("Content-Type") ?? "")) return request;
  const headers = new Headers(request.headers);
  headers.set("Content-Type", "application/json");
  return new Request(request.url, { method: request.method, headers, body: request.body, duplex: "half" } as RequestInit);
}

export function loader() {
  return methodNotAllowed("POST");
}

export async function action({ request, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return withApiErrors(async () => {
    const { shareType, shareData } = await readJsonBody(asJson(request), bodySchema, { maxBytes: 10_000 });
    const viewer = await getOptionalUser(request);
    const access = isRecordId(params.id) ? await canViewMemorial(params.id, viewer) : null;
    if (!access?.allowed) return apiError(404, NOT_FOUND);
    return json(await recordShare(params.id, viewer?.id ?? null, shareType, shareData as Prisma.InputJsonValue | null | undefined), { status: 201 });
  });
}
