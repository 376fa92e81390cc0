import { z } from "~/utils/validation/zod";
import type { Prisma } from "~/generated/prisma/client";
import { recordShare, SHARE_TYPES } from "~/models/memorials/views.server";
import { apiRoute, created, endpoint } from "~/request/api-route.server";
import { jsonHasControlCharacters, TEXT_MESSAGES } from "~/utils/validation/text-rules";

// POST /api/memorials/{id}/share { shareType, shareData? }:
// records a share by anyone who may see the memorial, signed in or not. The page's share buttons send it
// with navigator.sendBeacon, whose body may arrive as text/plain: such a body is read as JSON too.

const SHARE_TYPE = "shareType must be facebook, twitter or copy_link";

const bodySchema = z.object({
  shareType: z.enum(SHARE_TYPES, { error: SHARE_TYPE }),
  shareData: z
    .json()
    .refine((v) => !jsonHasControlCharacters(v), TEXT_MESSAGES.control)
    .optional()
    .nullable(),
});

const api = apiRoute({
  POST: endpoint({
    access: "public",
    body: bodySchema,
    maxBodyBytes: 10_000,
    textPlainIsJson: true,
    memorial: "visible",
    handle: async ({ user, params, body }) => {
      return created(await recordShare(params.id!, user?.id ?? null, body.shareType, body.shareData as Prisma.InputJsonValue | null | undefined));
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
