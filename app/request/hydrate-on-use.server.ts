import { Transform } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import type { EntryContext } from "react-router";

// "Content first" for the pages a shared link or a search brings people to (the memorial page and every
// other public page opt in with `handle: { hydrateOnUse: true }`). Such a page is complete without JavaScript: links and forms work as
// plain HTML, as they do with JavaScript off. So its scripts (about 120 KB, the framework's floor, and a
// few hundred milliseconds of a slow phone's main thread to start React) wait until the visitor uses the
// page: a tap, a key, a field focused, the pointer moved, or the page scrolled to within a screen of a
// part that scripts improve (marked `data-hydrate-near`: the tribute form, the share buttons). A visitor
// who reads the page pays nothing for them; one who reads on towards the form gets them while reading.
// A pointer resting over the window is reported as a move, without movement, when the page is laid out
// under it (Chromium does so even where there is no mouse, as on a phone): that is not use. Use that comes
// while the page is still arriving waits for the rest of the document: the scripts held back further down
// have not been read yet, and putting back only those before would leave the page half started for good.
// Only scrolling brings a part within reach: the observer's reports while the page has not moved from
// where it opened (its first look, and layout that shifts as pictures arrive) do not count. So a part
// already within reach when the page opens (a short memorial's form) does not count either: starting
// React at once cost a slow phone most of a second of blocked main thread before the visitor did
// anything, and the form and the share links work as plain HTML until the first tap or key brings them.
//
// How: the document (one shell, no streamed parts on these pages) is collected, React Router's script
// preloads are taken out of <head>, and its module script and the inline scripts that carry its data
// are given a type browsers do not run; a few lines added to the first inline script put them back
// then, in document order and with the page's CSP nonce. Only that script carries the nonce in the page: the
// waiting ones get it from it when they are put back. Each nonce in a kept page is a cut in its compressed
// bytes (server/packed-page.ts), and one cut instead of five made the memorial page 12 % smaller and
// packed in half the time.
// The preloads are not put back: inserting a dozen of them costs a long task on a slow phone, and the
// modules find each other through their imports.

// Every page a visitor opens without signing in opts in; a route that shows members another
// screen at the same address (`/`: the landing page or the dashboard) says which with a test of its loader's data.
export type HydrateOnUseHandle = { hydrateOnUse?: boolean | ((loaderData: unknown) => boolean) };

/** Whether the page being rendered asked for its scripts to wait for the visitor. */
export function wantsHydrateOnUse(context: EntryContext) {
  return context.staticHandlerContext.matches.some((match) => {
    const wants = (context.routeModules[match.route.id]?.handle as HydrateOnUseHandle | undefined)?.hydrateOnUse;
    return wants === true || (typeof wants === "function" && wants(context.staticHandlerContext.loaderData?.[match.route.id]));
  });
}

const DEFERRED_TYPE = "everlight/on-use";
const USE_EVENTS = ["pointerdown", "pointermove", "keydown", "focusin", "touchstart", "wheel"];
const PRELOAD = /<link rel="modulepreload" href="[^"]+"[^>]*\/>/g;
const MODULE_SCRIPT = /<script nonce="([^"]*)" type="module" async="">/;
const FIRST_INLINE_SCRIPT = /<script nonce="[^"]*">/;
// React Router's context and the page's data for hydration (some 20 KB on a long memorial): kept as text
// until the visitor comes, then run in document order before the module script.
const ROUTER_DATA_SCRIPT = /<script nonce="[^"]*">window\.__reactRouterContext/g;

/** Rewrites a rendered document so that its scripts wait for the visitor (see above). */
export function deferScripts(html: string): string {
  if (!MODULE_SCRIPT.test(html)) return html;
  // Once, on the first use of the page, or when a part marked data-hydrate-near comes within a screen.
  const loader =
    `(function(){var d=document,w=window,c=d.currentScript,N=c.nonce||c.getAttribute("nonce"),E=${JSON.stringify(USE_EVENTS)},io,done,go=function(e){` +
    `if(done||e&&e.type=="pointermove"&&!e.movementX&&!e.movementY)return;if(d.readyState=="loading")return d.addEventListener("DOMContentLoaded",go);done=1;E.forEach(function(e){w.removeEventListener(e,go,true)});if(io)io.disconnect();` +
    `d.querySelectorAll('script[type="${DEFERRED_TYPE}"]').forEach(function(m){` +
    `var s=d.createElement("script");if(m.dataset.module!==undefined)s.type="module";s.nonce=N;s.textContent=m.textContent;m.replaceWith(s)})};` +
    `E.forEach(function(e){w.addEventListener(e,go,{capture:true,passive:true})});` +
    `w.addEventListener("load",function(){var n=d.querySelectorAll("[data-hydrate-near]");if(done||!n.length)return;` +
    `if(!w.IntersectionObserver)return go();` +
    `var y=w.scrollY;io=new IntersectionObserver(function(es){if(w.scrollY!==y&&es.some(function(e){return e.isIntersecting}))go()},{rootMargin:"100% 0px"});` +
    `n.forEach(function(e){io.observe(e)})})})();`;
  const nonce = html.match(MODULE_SCRIPT)![1];
  const deferred = html
    .replace(PRELOAD, "")
    .replace(ROUTER_DATA_SCRIPT, `<script type="${DEFERRED_TYPE}">window.__reactRouterContext`)
    .replace(MODULE_SCRIPT, `<script type="${DEFERRED_TYPE}" data-module="">`);
  // The loader joins the first script that still runs (React Router's scroll restoration), or has its own.
  return FIRST_INLINE_SCRIPT.test(deferred)
    ? deferred.replace(FIRST_INLINE_SCRIPT, (tag) => tag + loader)
    : deferred.replace("</body>", `<script nonce="${nonce}">${loader}</script></body>`);
}

/** The document stream, collected and passed through deferScripts. */
export function deferScriptsStream(onFinal: () => void) {
  const decoder = new StringDecoder("utf8");
  let html = "";
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      html += decoder.write(chunk);
      callback();
    },
    flush(callback) {
      callback(null, deferScripts(html + decoder.end()));
    },
    final(callback) {
      onFinal();
      callback();
    },
  });
}
