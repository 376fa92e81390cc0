import { parseWithZod } from "@conform-to/zod/v4";

// How an action reads a posted form: Conform's parseWithZod, with one guard. Conform reserves two names,
// `__intent__` and `__state__`, for the buttons and list controls that change a form in the browser, and
// reads them as JSON; anything else under those names makes it throw, which would answer 500. None of
// our forms posts either (no form uses those controls), so they are dropped before parsing: a forged one
// changes nothing, and the rest of the form is checked as usual.

const CONFORM_NAMES = ["__intent__", "__state__"];

function withoutConformControls(payload: FormData | URLSearchParams): FormData | URLSearchParams {
  if (!CONFORM_NAMES.some((name) => payload.has(name))) return payload;
  const copy = payload instanceof FormData ? new FormData() : new URLSearchParams();
  for (const [name, value] of payload.entries()) {
    if (CONFORM_NAMES.includes(name)) continue;
    if (copy instanceof FormData) copy.append(name, value);
    else if (typeof value === "string") copy.append(name, value);
  }
  return copy;
}

/** parseWithZod for a posted form, safe from Conform's reserved names (see above). */
export const parseForm = ((payload: FormData | URLSearchParams, options: never) =>
  parseWithZod(withoutConformControls(payload), options)) as unknown as typeof parseWithZod;
