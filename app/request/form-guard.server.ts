import { createHmac, timingSafeEqual } from "node:crypto";
import { getSessionSecrets } from "~/services/secrets.server";
import { HONEYPOT_FIELD, STAMP_FIELD } from "~/utils/form-guard";

// Anonymous forms (tributes, contact) carry two spam checks: a honeypot
// field people never see, and a signed "started at" stamp so that a form sent back within seconds of
// being served (as bots do) is refused. The stamp is signed, so it cannot simply be back-dated. The
// fields' names live in utils/form-guard.ts, shared with the form that renders them (AntiSpamFields).

export const MIN_FILL_MS = 3000;
const MAX_AGE_MS = 24 * 60 * 60 * 1000;

function sign(value: string) {
  return createHmac("sha256", getSessionSecrets()[0]).update(`form-stamp:${value}`).digest("base64url");
}

export function issueFormStamp(now = Date.now()) {
  const ts = String(now);
  return `${ts}.${sign(ts)}`;
}

export type GuardResult = "ok" | "honeypot" | "too-fast" | "invalid";

/** Whether the field people never see was filled in (a form's value, or a JSON body's: docs/decisions/013). */
export function honeypotFilled(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  return typeof value !== "string" || value.trim() !== "";
}

export function checkFormGuard(form: FormData, now = Date.now()): GuardResult {
  if (honeypotFilled(form.get(HONEYPOT_FIELD))) return "honeypot";
  const stamp = form.get(STAMP_FIELD);
  if (typeof stamp !== "string") return "invalid";
  const [ts, signature] = stamp.split(".");
  if (!ts || !signature) return "invalid";
  const expected = Buffer.from(sign(ts));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return "invalid";
  const age = now - Number(ts);
  if (!Number.isFinite(age) || age < 0 || age > MAX_AGE_MS) return "invalid";
  return age < MIN_FILL_MS ? "too-fast" : "ok";
}
