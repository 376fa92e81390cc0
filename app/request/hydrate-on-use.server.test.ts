import { describe, expect, it } from "vitest";
import { deferScripts } from "./hydrate-on-use.server";

// The memorial page's scripts wait for the visitor (hydrate-on-use.server.ts); the browser tests prove
// when they load and that the page then hydrates. Here: the rewrite itself, on a document shaped as
// React Router renders it.

const N = "abc123==";
const page = [
  `<!DOCTYPE html><html lang="en-GB"><head><meta charSet="utf-8"/>`,
  `<link rel="stylesheet" href="/assets/app.css" data-precedence="default"/>`,
  `<link rel="modulepreload" href="/assets/entry.client-1.js" nonce="${N}"/>`,
  `<link rel="modulepreload" href="/assets/chunk-2.js" nonce="${N}"/>`,
  `</head><body><main><p>Winnie ran the post office.</p></main>`,
  `<script nonce="${N}">console.log("scroll restoration")</script>`,
  `<script nonce="${N}">window.__reactRouterContext = {};</script>`,
  `<script nonce="${N}">window.__reactRouterContext.streamController.enqueue("[{\\"loaderData\\":1}]");</script>`,
  `<script nonce="${N}" type="module" async="">import "/assets/root.js"; import("/assets/entry.client-1.js");</script>`,
  `</body></html>`,
].join("");

describe("scripts after the page", () => {
  it("takes the script preloads out, holds the module script back, and adds one loader", () => {
    const out = deferScripts(page);
    expect(out).not.toContain("modulepreload");
    expect(out).not.toContain('type="module" async=""');
    expect(out).toContain(`<script type="everlight/on-use" data-module="">import "/assets/root.js";`);
    // React Router's context and data wait with it, as text, in their order.
    expect(out).toContain(`<script type="everlight/on-use">window.__reactRouterContext = {};</script>`);
    expect(out).toContain(`<script type="everlight/on-use">window.__reactRouterContext.streamController.enqueue(`);
    expect(out).not.toMatch(/<script nonce="[^"]*">window\.__reactRouterContext/);
    // Listeners for use, for the load (the parts near the form) and, for use while the page is still
    // arriving, for the end of the document.
    expect(out.match(/addEventListener/g)?.length).toBe(3);
    expect(out).toContain('if(d.readyState=="loading")return d.addEventListener("DOMContentLoaded",go)');
    // A move reported without movement (a pointer resting as the page is laid out) is not use.
    expect(out).toContain('e.type=="pointermove"&&!e.movementX&&!e.movementY');
    // The loader runs from a script that already carries the page's nonce (the only one that does: the
    // waiting scripts are given it when they are put back), and starts on use.
    expect(out.match(/ nonce="/g)?.length).toBe(1);
    expect(out).toContain("s.nonce=N");
    expect(out).toMatch(new RegExp(`<script nonce="${N}">\\(function\\(\\)\\{.*\\["pointerdown","pointermove","keydown","focusin","touchstart","wheel"\\]`));
    expect(out).toContain("[data-hydrate-near]");
    // Everything else is as rendered.
    expect(out).toContain('<link rel="stylesheet" href="/assets/app.css" data-precedence="default"/>');
    expect(out).toContain("<p>Winnie ran the post office.</p>");
  });

  it("gives the loader a script of its own when no other script runs before the visitor comes", () => {
    const out = deferScripts(page.replace(`<script nonce="${N}">console.log("scroll restoration")</script>`, ""));
    expect(out).toMatch(new RegExp(`<script nonce="${N}">\\(function\\(\\)\\{.*</script></body>`));
    expect(out).not.toMatch(/<script nonce="[^"]*">window\.__reactRouterContext/);
  });

  it("leaves a document without React Router's module script alone", () => {
    const plain = "<!DOCTYPE html><html><head></head><body><p>Static</p></body></html>";
    expect(deferScripts(plain)).toBe(plain);
  });
});
