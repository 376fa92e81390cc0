import type { Request, Response } from "express";
import stylesheet from "~/app.css?url";
import { SITE_NAME } from "~/utils/site";
import { describeBytes } from "~/utils/upload-limits";

// What the server answers when it refuses a request before any route runs (server/request-handler.ts):
// `{ message }` for the /api, and for pages a small page in the site's style that says what happened
// and how to go on. Sent by people who posted a form without JavaScript, so it must read well alone.

export type Refusal = { status: 400 | 405 | 413 | 415; title: string; message: string };

export const REFUSALS = {
  tooLarge: (limitBytes: number): Refusal => ({
    status: 413,
    title: "That was more than this page can take",
    message: `What you sent is larger than ${describeBytes(limitBytes)}, the most this page accepts in one go. Nothing was saved. Please go back and send less.`,
  }),
  notAForm: {
    status: 415,
    title: "This page takes a form",
    message: "This address accepts a form sent from one of our pages, and what arrived was not one. Nothing was saved.",
  },
  unreadableForm: {
    status: 400,
    title: "The form could not be read",
    message: "What arrived was broken on the way. Nothing was saved. Please go back and send the form again.",
  },
  unreadableAddress: {
    status: 400,
    title: "This address cannot be read",
    message: "It holds a hidden character (a NUL byte) that no address of ours has. Please check the link, or start again from the home page.",
  },
  unreadableHost: {
    status: 400,
    title: "This request names no site we know",
    message: "Its Host header is empty or not a site's name. Please open the site from its address, or from the home page.",
  },
  method: {
    status: 405,
    title: "Not something this address can do",
    message: "This address does not accept that kind of request.",
  },
} satisfies Record<string, Refusal | ((limit: number) => Refusal)>;

export function sendRefusal(req: Request, res: Response, refusal: Refusal & { api: boolean; headers?: Record<string, string> }) {
  res.status(refusal.status);
  for (const [name, value] of Object.entries(refusal.headers ?? {})) res.setHeader(name, value);
  res.setHeader("Cache-Control", "no-store");
  if (refusal.api) return void res.json({ message: refusal.message });
  res.type("html").send(refusalPage(refusal, backLink(req)));
}

/** Back to the page the form was on, when the browser says it was ours; otherwise home. */
function backLink(req: Request): string {
  const referer = req.get("referer");
  if (!referer) return "/";
  try {
    const url = new URL(referer);
    return url.host === req.get("host") ? url.pathname + url.search : "/";
  } catch {
    return "/";
  }
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function refusalPage(refusal: Refusal, back: string) {
  return `<!DOCTYPE html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(refusal.title)} · ${SITE_NAME}</title>
<link rel="stylesheet" href="${stylesheet}">
</head>
<body class="flex min-h-screen flex-col">
<header class="border-b border-stone-200 bg-white"><div class="mx-auto flex h-16 max-w-6xl items-center px-4"><a href="/" class="text-lg font-semibold text-stone-900">${SITE_NAME}</a></div></header>
<main id="main" class="mx-auto flex w-full max-w-xl flex-1 flex-col items-start gap-4 px-4 py-20">
<p class="text-sm font-semibold uppercase tracking-wide text-heather-700">Error ${refusal.status}</p>
<h1 class="text-3xl font-bold text-stone-900">${escape(refusal.title)}</h1>
<p class="text-stone-700">${escape(refusal.message)}</p>
<p class="mt-4 flex flex-wrap gap-3"><a href="${escape(back)}" class="btn-primary">Go back</a><a href="/" class="btn-secondary">Go home</a></p>
</main>
</body>
</html>`;
}
