// The picture shown for a person who has no photograph yet: their initials, in the heading face, on one of
// a few warm tints chosen by the name (so the same person always looks the same, and a page of new
// memorials is not a row of identical shapes). An SVG in a data address: drawn without a request, with or
// without JavaScript, and cropped like a photograph by `object-cover` whatever the frame's shape.

const TINTS = [
  { ground: "#f0e4e9", ring: "#e4cdd7" }, // heather
  { ground: "#efe4d4", ring: "#e2d1b9" }, // sand
  { ground: "#e5e9dc", ring: "#d3dac6" }, // sage
  { ground: "#f2e2dc", ring: "#e6cdc3" }, // clay
] as const;
const INK = "#50293c";

/** Up to two initials, letters and digits only (so nothing in them needs escaping in the SVG): the first letter of the first and of the last word ("Mary Anne Ellis" → "ME"). */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = (word: string | undefined) => (word ? (Array.from(word).find((c) => /\p{L}|\p{N}/u.test(c)) ?? "") : "");
  return (first(words[0]) + (words.length > 1 ? first(words[words.length - 1]) : "")).toLocaleUpperCase("en");
}

function tintOf(name: string) {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.codePointAt(0)!) >>> 0;
  return TINTS[hash % TINTS.length];
}

/** The data address of a person's initials portrait. */
export function initialsPortrait(name: string): string {
  const { ground, ring } = tintOf(name);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400" width="400" height="400">` +
    `<rect width="400" height="400" fill="${ground}"/>` +
    `<circle cx="200" cy="200" r="118" fill="none" stroke="${ring}" stroke-width="3"/>` +
    `<text x="200" y="200" dy=".35em" text-anchor="middle" font-family="Georgia,'Liberation Serif','DejaVu Serif',serif" font-size="104" fill="${INK}">${initialsOf(name)}</text>` +
    `</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}
