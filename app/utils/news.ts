// News pictures: every article's picture is our own WebP copy at these widths, stored as
// /media/news/<id>-<width>.webp, the widest being the address kept in news_articles.urlToImage.
export const NEWS_IMAGE_WIDTHS = [320, 640] as const;

const OWN_COPY = /^\/media\/news\/([0-9a-f-]{36})-640\.webp$/;

/** What an <img> needs for an article's picture: our copies through srcset, or a same-site address as it is. */
export function newsImageSources(urlToImage: string | null): { src: string; srcSet?: string } | null {
  if (!urlToImage || !urlToImage.startsWith("/") || urlToImage.startsWith("//")) return null;
  const id = OWN_COPY.exec(urlToImage)?.[1];
  if (!id) return { src: urlToImage };
  return { src: urlToImage, srcSet: NEWS_IMAGE_WIDTHS.map((w) => `/media/news/${id}-${w}.webp ${w}w`).join(", ") };
}

/** The fetch's words. */
export const NEWS_MESSAGES = {
  fetched: "News fetched",
  failed: "Failed to fetch news. Please try again.",
  noFeeds:
    "No news feeds are set up yet. To add one, set NEWS_FEEDS to the address of an RSS or Atom feed (for example a newspaper's obituaries feed; several are separated by commas) and restart the server.",
} as const;
