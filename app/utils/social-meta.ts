import { formatLifeDates } from "./dates";
import { DEFAULT_SOCIAL_CARD, SITE_NAME } from "./site";
import { truncate } from "./text";

// How a page looks when its link is shared (docs/decisions/027-sharing-and-unlisted.md):
// Open Graph and Twitter card tags, the canonical address and, for a memorial, a schema.org Person. Every
// address here is absolute and built from PUBLIC_URL (publicUrl() on the server, handed over by the
// loader as `site`), never from the Host header a request happened to carry.

export const SOCIAL_CARD_SIZE = { width: 1200, height: 630 } as const;
/** What the site's own card shows, for those who cannot see it. */
export const DEFAULT_SOCIAL_CARD_ALT = `A lit candle above the name ${SITE_NAME}`;
/** How long a biography's line in a link preview may be (Facebook shows about this much). */
export const SHARE_DESCRIPTION_MAX = 200;

type MetaDescriptor = Record<string, unknown>;

/** The biography's first paragraph, cut at a word to fit a preview; empty when there is none. */
export function biographyLine(biography: string | null): string {
  const first = biography?.split(/\n\s*\n/).find((p) => p.trim()) ?? "";
  return truncate(first.replace(/\s+/g, " "), SHARE_DESCRIPTION_MAX);
}

/** Open Graph, Twitter card and canonical tags of a page anyone may share. */
export function socialMeta(page: {
  url: string;
  title: string;
  description: string;
  image: string;
  imageAlt: string;
  type?: "website" | "profile";
}): MetaDescriptor[] {
  return [
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:type", content: page.type ?? "website" },
    { property: "og:title", content: page.title },
    { property: "og:description", content: page.description },
    { property: "og:url", content: page.url },
    { property: "og:image", content: page.image },
    { property: "og:image:type", content: "image/jpeg" },
    { property: "og:image:width", content: String(SOCIAL_CARD_SIZE.width) },
    { property: "og:image:height", content: String(SOCIAL_CARD_SIZE.height) },
    { property: "og:image:alt", content: page.imageAlt },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: page.title },
    { name: "twitter:description", content: page.description },
    { name: "twitter:image", content: page.image },
    { name: "twitter:image:alt", content: page.imageAlt },
    { tagName: "link", rel: "canonical", href: page.url },
  ];
}

export type SharedMemorial = {
  id: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string | null;
  dateOfPassing: string | null;
  biography: string | null;
};

/**
 * A memorial page's tags: the name and dates as the title, a line of the biography, the portrait's social
 * card (`card`, a path on this site), and a schema.org Person with birthDate and deathDate.
 */
export function memorialSocialMeta(memorial: SharedMemorial, { site, card, url }: { site: string; card: string; url: string }): MetaDescriptor[] {
  const name = `${memorial.firstName} ${memorial.lastName}`.trim();
  const dates = formatLifeDates(memorial.dateOfBirth, memorial.dateOfPassing);
  const line = biographyLine(memorial.biography);
  const description = [dates, line].filter(Boolean).join(". ") || `A memorial for ${name} on ${SITE_NAME}.`;
  const image = `${site}${card}`;
  const person: Record<string, unknown> = {
    "@context": "https://schema.org",
    "@type": "Person",
    name,
    givenName: memorial.firstName,
    familyName: memorial.lastName,
    ...(memorial.dateOfBirth ? { birthDate: memorial.dateOfBirth.slice(0, 10) } : {}),
    ...(memorial.dateOfPassing ? { deathDate: memorial.dateOfPassing.slice(0, 10) } : {}),
    ...(line ? { description: line } : {}),
    image,
    url,
  };
  return [
    ...socialMeta({
      url,
      title: `In memory of ${name}`,
      description,
      image,
      imageAlt: card === DEFAULT_SOCIAL_CARD ? DEFAULT_SOCIAL_CARD_ALT : `Portrait of ${name}`,
      type: "profile",
    }),
    { property: "profile:first_name", content: memorial.firstName },
    { property: "profile:last_name", content: memorial.lastName },
    { "script:ld+json": person },
  ];
}

/** The landing page's tags: the site's own card, and a schema.org WebSite whose search is the memorial gallery's. */
export function siteSocialMeta(site: string, page: { title: string; description: string }): MetaDescriptor[] {
  return [
    ...socialMeta({ url: `${site}/`, ...page, image: `${site}${DEFAULT_SOCIAL_CARD}`, imageAlt: DEFAULT_SOCIAL_CARD_ALT }),
    {
      "script:ld+json": {
        "@context": "https://schema.org",
        "@type": "WebSite",
        name: SITE_NAME,
        url: `${site}/`,
        potentialAction: {
          "@type": "SearchAction",
          target: `${site}/memorials?search={search_term_string}`,
          "query-input": "required name=search_term_string",
        },
      },
    },
  ];
}
