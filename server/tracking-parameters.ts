// Parameters that links shared on social networks, in newsletters and in ads carry for the sender's
// analytics: a click id (Facebook adds `fbclid` to every link followed from it, a new one each time), a
// campaign (`utm_source`…). No page of ours reads them, so a page is the same with or without them, but the
// page cache keys pages by address: every visitor from a memorial shared on Facebook would be a page never
// rendered before (docs/decisions/035-addresses-of-one-page.md). The cache sets them aside; the browser keeps
// the address as it was.

/** Click ids and sharing marks of the networks, mail tools and ad services that add them to links. */
const TRACKING = new Set([
  "fbclid", // Facebook, Instagram
  "igshid",
  "igsh",
  "gclid", // Google Ads
  "gclsrc",
  "gbraid",
  "wbraid",
  "dclid",
  "srsltid", // Google Search, shopping results
  "_ga", // Google Analytics, across domains
  "_gl",
  "msclkid", // Microsoft Ads
  "twclid", // X
  "ttclid", // TikTok
  "li_fat_id", // LinkedIn
  "rdt_cid", // Reddit
  "sccid", // Snapchat
  "epik", // Pinterest
  "yclid", // Yandex
  "mc_cid", // Mailchimp
  "mc_eid",
]);

/** Whether one `name=value` of a query string is a tracking parameter (any `utm_…` is). */
function isTracking(pair: string) {
  const at = pair.indexOf("=");
  let name = at < 0 ? pair : pair.slice(0, at);
  try {
    name = decodeURIComponent(name.replace(/\+/g, " ")).toLowerCase();
  } catch {
    return false; // not a name a page could read either way: left as it is
  }
  return TRACKING.has(name) || name.startsWith("utm_");
}

/**
 * The query string (`""` or `"?…"`, as in a request's address) without its tracking parameters: the same
 * string when it has none; otherwise the others in their order and spelling, empty ones left out (no page
 * reads those either), or `""` when none is left.
 */
export function withoutTracking(search: string): string {
  if (search.length < 2) return search;
  const pairs = search.slice(1).split("&");
  const rest = pairs.filter((pair) => !isTracking(pair));
  if (rest.length === pairs.length) return search;
  const kept = rest.filter(Boolean).join("&");
  return kept ? `?${kept}` : "";
}
