import { parseFeed } from "@rowanmanning/feed-parser";
import { fetchBounded, hostAndPort, type FetchOptions } from "./fetch-bounded.server";

// Reading one RSS or Atom feed: fetched within bounds (fetch-bounded.server.ts), parsed by
// @rowanmanning/feed-parser (fast-xml-parser underneath, lenient with real-world feeds), and turned into
// plain entries. An adapter: it knows feeds, not articles or memorials (app/models/news.server.ts).

export const FEED_LIMITS = {
  /** The whole feed must arrive within this. */
  timeoutMs: 10_000,
  /** A feed larger than this is refused (real obituary feeds are tens of KB). */
  maxBytes: 2 * 1024 * 1024,
  /** Entries read from one feed. */
  maxEntries: 100,
} as const;

export type FeedEntry = {
  title: string;
  /** The article's address: absolute http(s). */
  url: string;
  /** Plain text, without markup. */
  description: string | null;
  publishedAt: Date | null;
  /** The picture the feed names for the entry (never shown as it is: the news fetch copies it). */
  imageUrl: string | null;
};

export type FeedRead = { ok: true; title: string | null; entries: FeedEntry[] } | { ok: false; message: string };

export type ReadFeedOptions = Partial<Pick<FetchOptions, "timeoutMs" | "maxBytes">>;

const ACCEPT = "application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.1";

export async function readFeed(address: string, options: ReadFeedOptions = {}): Promise<FeedRead> {
  // The feed's own host and port were configured by an administrator; where it redirects must be public.
  const own = URL.canParse(address) ? [hostAndPort(new URL(address))] : [];
  const fetched = await fetchBounded(address, {
    timeoutMs: options.timeoutMs ?? FEED_LIMITS.timeoutMs,
    maxBytes: options.maxBytes ?? FEED_LIMITS.maxBytes,
    accept: ACCEPT,
    publicOnly: { except: own },
  });
  if (!fetched.ok) return { ok: false, message: `The feed ${address} ${fetched.message}.` };
  const parsed = parseFeedText(decode(fetched.bytes, fetched.contentType), fetched.url);
  if (!parsed) return { ok: false, message: `The feed ${address} is not a valid RSS or Atom feed.` };
  return { ok: true, ...parsed };
}

/** The entries of a feed's text, or null when it is not a feed we can read. */
export function parseFeedText(text: string, baseUrl: string): { title: string | null; entries: FeedEntry[] } | null {
  // A news feed never needs entity declarations; refusing them rules out "billion laughs" expansion.
  if (/<!ENTITY/i.test(text)) return null;
  // An HTML page (a feed address that now shows a web page) is not a feed, however leniently parsed.
  if (!/<(?:rss|feed|rdf:RDF)[\s>]/i.test(text)) return null;
  let feed: ReturnType<typeof parseFeed>;
  try {
    feed = parseFeed(text);
  } catch {
    return null;
  }
  if (feed.meta.type !== "rss" && feed.meta.type !== "atom") return null;
  const entries: FeedEntry[] = [];
  for (const item of feed.items.slice(0, FEED_LIMITS.maxEntries)) {
    const title = plainText(item.title ?? "").slice(0, 300);
    const url = absoluteHttp(item.url, baseUrl);
    if (!title || !url) continue;
    const description = plainText(item.description ?? item.content ?? "").slice(0, 1000) || null;
    const published = item.published ?? item.updated;
    entries.push({
      title,
      url,
      description,
      publishedAt: published && !Number.isNaN(published.getTime()) ? published : null,
      imageUrl: absoluteHttp(imageOf(item), url),
    });
  }
  if (entries.length === 0 && !feed.title) return null;
  return { title: feed.title ? plainText(feed.title).slice(0, 200) || null : null, entries };
}

function imageOf(item: ReturnType<typeof parseFeed>["items"][number]): string | null {
  if (item.image?.url) return item.image.url;
  const media = item.mediaImages[0] ?? item.media.find((m) => (m.mimeType ?? m.type ?? "").startsWith("image"));
  if (media) return media.url ?? media.image;
  const img = /<img[^>]+src=["']([^"']+)["']/i.exec(item.content ?? item.description ?? "");
  return img ? decodeEntities(img[1]) : null;
}

function absoluteHttp(value: string | null | undefined, base: string): string | null {
  if (!value) return null;
  try {
    const url = new URL(value.trim(), base);
    return url.protocol === "http:" || url.protocol === "https:" ? url.toString() : null;
  } catch {
    return null;
  }
}

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  hellip: "…",
};

function decodeEntities(text: string) {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1].toLowerCase() === "x" ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Markup out, entities decoded, control characters gone, white space collapsed. */
export function plainText(html: string): string {
  const withoutTags = html.replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ").replace(/<[^>]*>/g, " ");
  return decodeEntities(decodeEntities(withoutTags))
    .replace(/<[^>]*>/g, " ")
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

function decode(bytes: Buffer, contentType: string): string {
  const declared =
    /charset=["']?([\w-]+)/i.exec(contentType)?.[1] ?? /<\?xml[^>]*encoding=["']([\w-]+)["']/i.exec(bytes.subarray(0, 200).toString("latin1"))?.[1];
  try {
    return new TextDecoder(declared ?? "utf-8").decode(bytes);
  } catch {
    return new TextDecoder("utf-8").decode(bytes);
  }
}
