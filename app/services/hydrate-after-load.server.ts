import { StringDecoder } from "node:string_decoder";
import { Transform } from "node:stream";
import type { EntryContext } from "react-router";

// "Content first" for the pages a shared link brings people to (the memorial page opts in with
// `handle: { hydrateAfterLoad: true }`). Such a page is complete without JavaScript, so on a slow phone
// line the words, the stylesheet and the portrait should have the line to themselves: the scripts
// (about 120 KB, the framework's floor) are fetched once the page has loaded, or as soon as the visitor
// starts to use it (a tap, a key, a field focused), and the page hydrates as usual. Until then links
// and forms work as plain HTML, as they do with JavaScript off.
//
// How: the document (one shell, no streamed parts on these pages) is collected, React Router's script
// preloads are taken out of <head> and its module script is given a type browsers do not run; a few
// lines added to its first inline script put the module script back then, with the page's CSP nonce.
// The preloads are not put back: inserting a dozen of them costs a long task on a slow phone, and the
// modules find each other through their imports.

export type HydrateAfterLoadHandle = { hydrateAfterLoad?: boolean };

/** Whether the page being rendered asked for its scripts after load. */
export function wantsHydrateAfterLoad(context: EntryContext) {
  return context.staticHandlerContext.matches.some((match) => {
    const handle = context.routeModules[match.route.id]?.handle as HydrateAfterLoadHandle | undefined;
    return handle?.hydrateAfterLoad === true;
  });
}

const DEFERRED_TYPE = "everlight/after-load";
const PRELOAD = /<link rel="modulepreload" href="[^"]+"[^>]*\/>/g;
const MODULE_SCRIPT = /<script nonce="([^"]*)" type="module" async="">/;
const FIRST_INLINE_SCRIPT = /<script nonce="[^"]*">/;

/** Rewrites a rendered document so that its scripts load after the page (see above). */
export function deferScripts(html: string): string {
  if (!MODULE_SCRIPT.test(html) || !FIRST_INLINE_SCRIPT.test(html)) return html;
  // On load, or as soon as the visitor starts to use the page (a tap, a key, a field focused), once.
  const loader =
    `(function(){var d=document,w=window,E=["load","pointerdown","keydown","focusin","touchstart"],go=function(){` +
    `E.forEach(function(e){w.removeEventListener(e,go,true)});` +
    `var m=d.querySelector('script[type="${DEFERRED_TYPE}"]');if(!m)return;` +
    `var s=d.createElement("script");s.type="module";s.nonce=m.nonce;s.textContent=m.textContent;m.replaceWith(s)};` +
    `E.forEach(function(e){w.addEventListener(e,go,true)})})();`;
  return html
    .replace(PRELOAD, "")
    .replace(MODULE_SCRIPT, (_tag, nonce: string) => `<script nonce="${nonce}" type="${DEFERRED_TYPE}">`)
    .replace(FIRST_INLINE_SCRIPT, (tag) => tag + loader);
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
