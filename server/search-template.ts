import { randomBytes } from "node:crypto";
import { findPublicMemorials, type BrowseFound } from "~/models/memorials/gallery.server";
import { readBrowseQuery } from "~/utils/browse";
import { keepTemplate, keptFrom, type KeptPage, type Rendered } from "./kept-page";
import { fillTemplate, KEPT_LEVEL, repackTemplate, type PageTemplate } from "./packed-page";

// A new search on the memorial gallery without rendering it (a page no cache has, at 1 % of the
// ceiling; docs/decisions/034-search-templates.md). Two searches that find the same memorials give pages that
// differ only in the words searched for: the heading, the search box, the title, the links (view, Load More,
// the form's action) and the page's data for the browser. So the page is rendered once per set of memorials
// found, with a placeholder for the words, and each search after it fills its own words into that template,
// written as each place writes them:
// - HTML text and attributes, escaped as React escapes them;
// - addresses, as URLSearchParams spells a query (the links and the form's action are made with it);
// - the loader data, a string in React Router's stream (JSON), itself in a JSON string in a script, escaped
//   as React Router escapes it.
// The filled page is laid out from the template's compressed text with the words as stored blocks: nothing
// is rendered nor compressed again (server/packed-page.ts).
//
// The page rendered in full is what a filled page must be, byte for byte (test/search-templates.test.ts
// compares them for awkward words). So a search renders in full when the template cannot say the same:
// - the words are not the ones the page reads (spaces around them, longer than it keeps, given twice) or the
//   address is not spelled as the form and the links spell it (the form's action repeats the address);
// - the words are a text the page's data holds already (a name, a category): React Router's stream writes a
//   repeated text as a reference to the first, so that page's data is laid out otherwise;
// - the template's render put the placeholder somewhere it could not be told apart (then no template is kept).
//
// Templates are keyed by the address with the placeholder, the memorials found, and the versions the page
// cache keys the gallery by (a change to any public memorial moves them), and bounded (least recently used out).

/** A random word no search holds, then the characters each place writes its own way. */
const TOKEN = randomBytes(12).toString("base64url");
const PLACEHOLDER = `${TOKEN} &"`;
/** Templates kept at most (tens of kilobytes each). */
const MAX_TEMPLATES = 64;

/** How each place writes the words. */
const WRITINGS = {
  html: (words: string) => escapeLikeReact(words),
  address: (words: string) => new URLSearchParams({ s: words }).toString().slice(2),
  data: (words: string) => escapeLikeReactRouter(JSON.stringify(JSON.stringify(words)).slice(1, -1)),
};
type Writing = keyof typeof WRITINGS;
const HOLES = Object.fromEntries(Object.entries(WRITINGS).map(([name, write]) => [name, write(PLACEHOLDER)])) as Record<Writing, string>;

/** React's escaping of text and attribute values (react-dom/server, escapeTextForBrowser). */
function escapeLikeReact(text: string) {
  return text.replace(/["&'<>]/g, (c) => ({ '"': "&quot;", "&": "&amp;", "'": "&#x27;", "<": "&lt;", ">": "&gt;" })[c]!);
}

/** React Router's escaping of the stream in a script (lib/dom/ssr/markup.ts, escapeHtml). */
function escapeLikeReactRouter(text: string) {
  return text.replace(/[&><\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

type Template = { page: PageTemplate; headers: [string, string][]; uses: number };

/** How the gallery at `url` would be rendered from a template, or null when it must be rendered in full. */
function templateAddress(url: URL): { words: string; address: URL } | null {
  const params = url.searchParams;
  const all = params.getAll("search");
  if (all.length !== 1) return null;
  const words = all[0];
  if (!words || words !== readBrowseQuery(url).search || words.includes(TOKEN)) return null;
  if (url.search.slice(1) !== params.toString()) return null;
  const address = new URL(url);
  address.search = new URLSearchParams([...params].map(([name, value]) => [name, name === "search" ? PLACEHOLDER : value])).toString();
  return { words, address };
}

/**
 * The gallery's search pages from templates. `answer` answers a search address with a page to keep, or null
 * (render it in full); `render` renders an address with the given memorials found, as the page cache does.
 */
export function searchTemplates() {
  const kept = new Map<string, Template | null>();
  const rendering = new Map<string, Promise<Template | null>>();

  function remember(key: string, template: Template | null) {
    kept.delete(key);
    kept.set(key, template);
    if (kept.size > MAX_TEMPLATES) kept.delete(kept.keys().next().value!);
  }

  async function templateFor(key: string, address: URL, found: BrowseFound, render: (url: URL, found: BrowseFound) => Promise<Rendered | null>) {
    if (kept.has(key)) {
      const template = kept.get(key)!;
      remember(key, template); // most recently used last
      return template;
    }
    let pending = rendering.get(key);
    if (!pending) {
      pending = render(address, found)
        .then((rendered) => (rendered ? makeTemplate(rendered) : null))
        .then((template) => {
          remember(key, template);
          return template;
        })
        .finally(() => rendering.delete(key));
      rendering.set(key, pending);
    }
    return pending;
  }

  return async function answer(url: URL, versions: string, render: (url: URL, found: BrowseFound) => Promise<Rendered | null>): Promise<KeptPage | null> {
    const at = templateAddress(url);
    if (!at) return null;
    const found = await findPublicMemorials(readBrowseQuery(url));
    const key = [at.address.host, at.address.pathname + at.address.search, versions, found.page, found.hasMore, found.ids.join(",")].join("|");
    const template = await templateFor(key, at.address, found, render);
    if (!template) return null;
    const data = WRITINGS.data(at.words);
    // Words the data holds already are written there as a reference: that page is laid out otherwise. (A text
    // in the data never holds the placeholder, so it lies whole within one piece.)
    const dataBytes = Buffer.from(data);
    if (template.page.pieces.some((piece) => piece.raw.includes(dataBytes))) return null;
    if (++template.uses === 2 && template.page.level < KEPT_LEVEL) setImmediate(() => (template.page = repackTemplate(template.page)));
    const values = { [HOLES.html]: WRITINGS.html(at.words), [HOLES.address]: WRITINGS.address(at.words), [HOLES.data]: data };
    return keptFrom(fillTemplate(template.page, values), template.headers);
  };
}

/** The template of a page rendered with the placeholder, or null when the placeholder is somewhere else too. */
function makeTemplate(rendered: Rendered): Template | null {
  const { html } = rendered;
  for (let at = html.indexOf(TOKEN); at >= 0; at = html.indexOf(TOKEN, at + 1)) {
    const told = html.startsWith(HOLES.html, at) || html.startsWith(HOLES.address, at) || html.startsWith(HOLES.data, at - 2);
    if (!told) return null;
  }
  return { page: keepTemplate(rendered, Object.values(HOLES)), headers: rendered.headers, uses: 0 };
}
