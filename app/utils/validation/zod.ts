import { z } from "zod";

// Zod, as every module of the app imports it. Building its first object schema, zod tries `new Function("")`
// to see whether it may compile parsers. Our Content-Security-Policy allows no eval (server/security.ts), so
// in the browser that try is a CSP violation Chromium reports in its Issues panel (Lighthouse's best
// practices: the landing page lost points for it), although zod catches the error. In the browser
// zod is told not to try (`jitless`): it parses without compiling, which the few fields of a form never
// notice. The server keeps compiled parsers. This module is imported before any schema is built, as ES
// modules evaluate a dependency before the module that imports it.
if (typeof document !== "undefined") z.config({ jitless: true });

export { z };
