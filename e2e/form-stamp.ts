import { createHmac } from "node:crypto";
import type { Page } from "@playwright/test";

// Anonymous forms carry a signed "started at" stamp, and one sent back within seconds is refused
// (app/request/form-guard.server.ts). A test cannot fill a form in "too quickly" on purpose: on a
// loaded machine typing alone can take longer than the limit. So the tests that need the refusal
// re-sign the stamp of the page's form posts as "now", the moment they leave the browser; and the
// journeys of a person, who takes longer than that, re-sign it as a few seconds earlier instead of
// waiting those seconds out.

function stampAt(time: number) {
  const secret = process.env.E2E_SESSION_SECRET;
  if (!secret) throw new Error("E2E_SESSION_SECRET is not set");
  const ts = String(time);
  return `${ts}.${createHmac("sha256", secret).update(`form-stamp:${ts}`).digest("base64url")}`;
}

/** Every form the page posts from now on reaches the server as if sent back the instant it was served. */
export async function sendFormsBackAtOnce(page: Page) {
  await restampForms(page, () => stampAt(Date.now()));
}

const takingTime = new WeakSet<Page>();

/** Every form the page posts from now on reaches the server as if filled in over a person's few seconds. */
export async function sendFormsAsAPersonWould(page: Page) {
  if (takingTime.has(page)) return;
  takingTime.add(page);
  await restampForms(page, () => stampAt(Date.now() - 5_000));
}

async function restampForms(page: Page, stampNow: () => string) {
  await page.route("**/*", async (route, request) => {
    const body = request.method() === "POST" ? request.postData() : null;
    if (!body || !body.includes("formStartedAt")) return route.fallback();
    const stamp = stampNow();
    const postData = body.replace(/(formStartedAt=)[^&]*/, `$1${stamp}`).replace(/(name="formStartedAt"\r\n\r\n)[^\r]*/, `$1${stamp}`);
    await route.continue({ postData });
  });
}
