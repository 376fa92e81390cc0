import { createCookie, redirect } from "react-router";
import { z } from "~/utils/validation/zod";
import { secureCookies } from "~/services/env.server";
import { getSessionSecrets } from "~/services/secrets.server";
import { signedOnce } from "./signed-once.server";

// Flash toasts that survive a redirect: a short-lived signed
// cookie carries { type, title, description }; the root loader reads and clears it.

export const toastSchema = z.object({
  type: z.enum(["success", "error", "info"]).default("success"),
  title: z.string().max(200),
  description: z.string().max(500).optional(),
  /** The id of the page section that shows this message in place (ToastInPlace); the redirect ends in #that-id. */
  at: z
    .string()
    .regex(/^[a-z][a-z-]{0,39}$/)
    .optional(),
});
export type Toast = z.infer<typeof toastSchema>;
export type ToastInput = z.input<typeof toastSchema>;

let cookie: ReturnType<typeof createCookie> | undefined;
function toastCookie() {
  cookie ??= createCookie("__toast", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    maxAge: 60,
    secure: secureCookies(),
    secrets: getSessionSecrets(),
  });
  return cookie;
}

/** Set-Cookie headers by the toast they carry: a toast signs to the same header every time (Max-Age, no date). */
const signed = signedOnce<string>(500);

export function toastHeader(toast: ToastInput): Promise<string> {
  const value = toastSchema.parse(toast);
  return signed(JSON.stringify(value), () => toastCookie().serialize(value));
}

/** Adds the toast's Set-Cookie to a headers object (creating one if needed). */
export async function withToast(toast: ToastInput, headers: HeadersInit = {}): Promise<Headers> {
  const h = new Headers(headers);
  h.append("Set-Cookie", await toastHeader(toast));
  return h;
}

/**
 * Where to go next, with a toast to show there: always 303 See Other, so the browser follows with a GET
 * whatever the request's method (a POST is never sent twice by a reload). Extra headers (a session
 * cookie) go along.
 */
export async function redirectWithToast(to: string, toast: ToastInput, headers: HeadersInit = {}): Promise<Response> {
  return redirect(to, { status: 303, headers: await withToast(toast, headers) });
}

/** Reads the pending toast and the header that clears it. */
export async function readToast(request: Request): Promise<{ toast: Toast | null; clear: string | null }> {
  const value = await toastCookie().parse(request.headers.get("Cookie"));
  if (!value) return { toast: null, clear: null };
  const parsed = toastSchema.safeParse(value);
  return { toast: parsed.success ? parsed.data : null, clear: await toastCookie().serialize("", { maxAge: 0 }) };
}
