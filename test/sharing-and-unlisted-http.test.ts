import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VISIBILITY_CHOICE } from "~/utils/validation/account-rules";
import { client, rawRequest, registerMember, serverDatabases, startServer, type Client, type TestServer } from "./http";
import { fillPattern, routeTable } from "./route-table";

// Sharing and unlisted memorials over real HTTP, on both databases (docs/decisions/027-sharing-and-unlisted.md):
// - a shared memorial link looks right: Open Graph and Twitter card tags, the canonical address and a
//   schema.org Person, every absolute address from PUBLIC_URL even when the request names another host;
//   the portrait's 1200×630 social card (or the site's own); nothing of a friends-only, private or draft
//   memorial reaches a stranger;
// - an unlisted memorial opens by its link (with noindex) but is in no list: not in any page or /api answer
//   of the route table, with or without a search for its name, nor in sitemap.xml; the sitemap and the page's
//   noindex follow a change of visibility at once; robots.txt points to the sitemap.

const SITE = "https://everlight.example";
/** What a request says its host is; nothing the server writes may take it up. */
const FORGED_HOST = "evil.example";

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 150, g: 110, b: 80 } } })
    .png()
    .toBuffer();

type Meta = { properties: Map<string, string>; names: Map<string, string>; canonical: string | null; jsonLd: unknown[] };

const decode = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** The head's meta tags, canonical link and JSON-LD blocks, as a crawler reads them. */
function readMeta(html: string): Meta {
  const head = html.slice(0, html.indexOf("</head>"));
  const properties = new Map<string, string>();
  const names = new Map<string, string>();
  for (const tag of head.match(/<meta\s[^>]*>/g) ?? []) {
    const attr = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
    const content = attr("content");
    const property = attr("property");
    const name = attr("name");
    if (property && content !== undefined) properties.set(property, decode(content));
    if (name && content !== undefined) names.set(name, decode(content));
  }
  const canonical = /<link\s[^>]*rel="canonical"[^>]*href="([^"]*)"/.exec(head)?.[1] ?? null;
  const jsonLd = [...head.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]) as unknown);
  return { properties, names, canonical: canonical && decode(canonical), jsonLd };
}

/** A file's bytes, as a link preview fetches it (with a member's cookie when given). */
async function fetchFile(server: TestServer, path: string, cookie = "") {
  const res = await fetch(`${server.url}${path}`, { headers: cookie ? { Cookie: cookie } : {} });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** A page fetched with a forged Host header, as a proxy that passes it on would. */
async function getWithForgedHost(server: TestServer, path: string) {
  return rawRequest(server.url, "GET", path, { headers: { Host: FORGED_HOST, "X-Forwarded-Host": FORGED_HOST } });
}

describe.each(serverDatabases())("shared links, unlisted memorials and the sitemap on %s", (database) => {
  let server: TestServer;
  let owner: Client;
  let ownerId: string;
  let stranger: Client;
  /** A word in every test memorial's surname, so a search would find them all. */
  const word = `Quill${randomBytes(4).toString("hex")}`;
  const ids = {} as Record<"public" | "unlisted" | "friends" | "private" | "draft" | "plain", string>;

  beforeAll(async () => {
    server = await startServer({ PUBLIC_URL: SITE }, { database });
    const registered = await registerMember(server.url, { firstName: "Olive", lastName: "Owner" });
    owner = registered.api;
    ownerId = registered.id;
    stranger = (await registerMember(server.url, { firstName: "Sam", lastName: "Stranger" })).api;
    const make = async (visibility: string, isPublished: boolean, firstName: string, extra: Record<string, unknown> = {}) => {
      const res = await owner.post("/api/memorials", { firstName, lastName: `${word}${firstName}`, visibility, isPublished, ...extra });
      expect(res.status, res.text).toBe(201);
      return res.json.id as string;
    };
    const life = {
      dateOfBirth: "1931-04-02",
      dateOfPassing: "2024-11-20",
      biography: "Ada kept bees on the allotment for forty years and taught every child on the street to swim.\n\nShe is missed.",
    };
    ids.public = await make("public", true, "Ada", life);
    ids.unlisted = await make("unlisted", true, "Una", life);
    ids.friends = await make("friends", true, "Fay", life);
    ids.private = await make("private", true, "Pia", life);
    ids.draft = await make("public", false, "Dot", life);
    ids.plain = await make("public", true, "Pim");
    // A tall portrait, so the card is a real crop and not a resize.
    for (const id of [ids.public, ids.unlisted, ids.friends, ids.private, ids.draft]) {
      const portrait = await owner.post(`/api/memorials/${id}/profile-image`, {
        imageData: `data:image/png;base64,${(await png(600, 900)).toString("base64")}`,
        fileName: "portrait.png",
        fileType: "image/png",
      });
      expect(portrait.status, portrait.text).toBe(200);
    }
  });
  afterAll(async () => {
    await server?.stop();
  });

  describe("a shared memorial link looks right", () => {
    it("a public memorial page: Open Graph, Twitter card, canonical and a Person, all at PUBLIC_URL whatever the Host header", async () => {
      const res = await getWithForgedHost(server, `/memorials/${ids.public}`);
      expect(res.status).toBe(200);
      expect(res.text).not.toContain(FORGED_HOST);
      const meta = readMeta(res.text);
      const url = `${SITE}/memorials/${ids.public}`;
      const name = `Ada ${word}Ada`;
      expect(meta.canonical).toBe(url);
      expect(meta.names.get("robots")).toBeUndefined();
      expect(meta.properties.get("og:type")).toBe("profile");
      expect(meta.properties.get("og:site_name")).toBe("Everlight");
      expect(meta.properties.get("og:title")).toBe(`In memory of ${name}`);
      expect(meta.properties.get("og:description")).toBe(
        "April 2, 1931 – November 20, 2024. Ada kept bees on the allotment for forty years and taught every child on the street to swim.",
      );
      expect(meta.properties.get("og:url")).toBe(url);
      const image = meta.properties.get("og:image")!;
      expect(image).toMatch(new RegExp(`^${SITE}/media/memorials/${ids.public}/[0-9a-f-]{36}/card\\.jpg$`));
      expect(meta.properties.get("og:image:width")).toBe("1200");
      expect(meta.properties.get("og:image:height")).toBe("630");
      expect(meta.properties.get("og:image:alt")).toBe(`Portrait of ${name}`);
      expect(meta.names.get("twitter:card")).toBe("summary_large_image");
      expect(meta.names.get("twitter:title")).toBe(`In memory of ${name}`);
      expect(meta.names.get("twitter:image")).toBe(image);
      expect(meta.jsonLd).toEqual([
        {
          "@context": "https://schema.org",
          "@type": "Person",
          name,
          givenName: "Ada",
          familyName: `${word}Ada`,
          birthDate: "1931-04-02",
          deathDate: "2024-11-20",
          description: "Ada kept bees on the allotment for forty years and taught every child on the street to swim.",
          image,
          url,
        },
      ]);
      // The share buttons link the same address.
      expect(res.text).toContain(`https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url).replace(/&/g, "&amp;")}`);
      expect(res.text).toContain(`https://twitter.com/intent/tweet?url=${encodeURIComponent(url)}`);
    });

    it("a life story holding markup stays text inside the tags and the JSON-LD (no way out of the <script>)", async () => {
      const story = `</script><script>alert("x")</script> & "quotes" <b>bold</b>`;
      const res = await owner.post("/api/memorials", { firstName: "Mal", lastName: `${word}Mal`, visibility: "public", isPublished: true, biography: story });
      expect(res.status, res.text).toBe(201);
      const page = await client(server.url).get(`/memorials/${res.json.id}`);
      expect(page.text).not.toContain('<script>alert("x")');
      const meta = readMeta(page.text);
      expect(meta.properties.get("og:description")).toBe(story);
      expect((meta.jsonLd[0] as { description: string }).description).toBe(story);
    });

    it("the same tags at the /memorial/{id} alias, and for a signed-in member", async () => {
      for (const [who, path] of [
        ["a visitor", `/memorial/${ids.public}`],
        ["a member", `/memorials/${ids.public}`],
      ] as const) {
        const res = who === "a member" ? await stranger.get(path) : await client(server.url).get(path);
        expect(res.status, who).toBe(200);
        const meta = readMeta(res.text);
        expect(meta.canonical, who).toBe(`${SITE}/memorials/${ids.public}`);
        expect(meta.properties.get("og:url"), who).toBe(`${SITE}/memorials/${ids.public}`);
        expect((meta.jsonLd[0] as { "@type": string })["@type"], who).toBe("Person");
      }
    });

    it("the portrait's social card is a 1200×630 JPEG at a stable address, made once and then served as kept", async () => {
      const page = await client(server.url).get(`/memorials/${ids.public}`);
      const cardPath = readMeta(page.text).properties.get("og:image")!.slice(SITE.length);
      const first = await fetchFile(server, cardPath);
      expect(first.status).toBe(200);
      expect(first.headers.get("content-type")).toBe("image/jpeg");
      expect(first.headers.get("cache-control")).toBe("public, max-age=300, must-revalidate");
      const info = await sharp(first.bytes).metadata();
      expect([info.format, info.width, info.height]).toEqual(["jpeg", 1200, 630]);
      const again = await fetchFile(server, cardPath);
      expect(Buffer.from(again.bytes).equals(Buffer.from(first.bytes))).toBe(true);
      // A card that is not a stored portrait's is a 404, like any missing file.
      expect((await client(server.url).get(`/media/memorials/${ids.public}/00000000-0000-4000-8000-000000000000/card.jpg`)).status).toBe(404);
    });

    it("a memorial without a portrait shows the site's own 1200×630 card, and no dates or biography it does not have", async () => {
      const meta = readMeta((await client(server.url).get(`/memorials/${ids.plain}`)).text);
      expect(meta.properties.get("og:image")).toBe(`${SITE}/images/social-card.jpg`);
      expect(meta.properties.get("og:image:alt")).toBe("A lit candle above the name Everlight");
      expect(meta.properties.get("og:description")).toBe(`A memorial for Pim ${word}Pim on Everlight.`);
      expect(meta.jsonLd).toEqual([expect.not.objectContaining({ birthDate: expect.anything() })]);
      const card = await fetchFile(server, "/images/social-card.jpg");
      expect(card.status).toBe(200);
      const info = await sharp(card.bytes).metadata();
      expect([info.format, info.width, info.height]).toEqual(["jpeg", 1200, 630]);
    });

    it("the landing page and the gallery (also as /market): the site's card and canonical at PUBLIC_URL; the landing page a WebSite with its search", async () => {
      const landing = readMeta((await getWithForgedHost(server, "/")).text);
      expect(landing.canonical).toBe(`${SITE}/`);
      expect(landing.properties.get("og:type")).toBe("website");
      expect(landing.properties.get("og:url")).toBe(`${SITE}/`);
      expect(landing.properties.get("og:image")).toBe(`${SITE}/images/social-card.jpg`);
      expect(landing.names.get("twitter:card")).toBe("summary_large_image");
      expect(landing.jsonLd).toEqual([
        {
          "@context": "https://schema.org",
          "@type": "WebSite",
          name: "Everlight",
          url: `${SITE}/`,
          potentialAction: {
            "@type": "SearchAction",
            target: `${SITE}/memorials?search={search_term_string}`,
            "query-input": "required name=search_term_string",
          },
        },
      ]);
      for (const path of ["/memorials", `/market?search=${word}`]) {
        const res = await getWithForgedHost(server, path);
        expect(res.text, path).not.toContain(FORGED_HOST);
        const gallery = readMeta(res.text);
        expect(gallery.canonical, path).toBe(`${SITE}/memorials`);
        expect(gallery.properties.get("og:url"), path).toBe(`${SITE}/memorials`);
        expect(gallery.properties.get("og:title"), path).toBe("Memorial Gallery · Everlight");
        expect(gallery.properties.get("og:image"), path).toBe(`${SITE}/images/social-card.jpg`);
        expect(gallery.names.get("robots"), path).toBeUndefined();
      }
    });

    it("a friends-only, private or draft memorial shows a stranger nothing of itself: no name, no tags, no Person, no card", async () => {
      for (const state of ["friends", "private", "draft"] as const) {
        for (const [who, api] of [
          ["visitor", client(server.url)],
          ["member", stranger],
        ] as const) {
          const res = await api.get(`/memorials/${ids[state]}`);
          expect(res.status, `${state} to a ${who}`).toBe(403);
          const meta = readMeta(res.text);
          expect(meta.names.get("robots"), `${state} to a ${who}`).toBe("noindex");
          expect(
            [...meta.properties.keys()].filter((k) => k.startsWith("og:")),
            `${state} to a ${who}`,
          ).toEqual([]);
          expect(
            [...meta.names.keys()].filter((k) => k.startsWith("twitter:")),
            `${state} to a ${who}`,
          ).toEqual([]);
          expect(meta.jsonLd, `${state} to a ${who}`).toEqual([]);
          expect(res.text, `${state} to a ${who}`).not.toContain(word);
        }
        // Its card is refused like its other files.
        const ownerPage = await owner.get(`/memorials/${ids[state]}`);
        const cardPath = readMeta(ownerPage.text).properties.get("og:image")!.slice(SITE.length);
        expect(cardPath, state).toMatch(/\/card\.jpg$/);
        expect((await fetchFile(server, cardPath)).status, state).toBe(404);
        expect((await fetchFile(server, cardPath, stranger.cookie)).status, state).toBe(404);
        // The owner sees the page, kept out of search engines.
        expect(readMeta(ownerPage.text).names.get("robots"), state).toBe("noindex");
      }
    });
  });

  describe("an unlisted memorial opens by its link, and is in no list", () => {
    it("opens by its link for anyone, with noindex, and its link preview and card", async () => {
      for (const api of [client(server.url), stranger]) {
        const res = await api.get(`/memorials/${ids.unlisted}`);
        expect(res.status).toBe(200);
        expect(res.text).toContain(`Una ${word}Una`);
        expect(res.text).toContain("Unlisted");
        const meta = readMeta(res.text);
        expect(meta.names.get("robots")).toBe("noindex");
        expect(meta.properties.get("og:title")).toBe(`In memory of Una ${word}Una`);
        expect(meta.canonical).toBe(`${SITE}/memorials/${ids.unlisted}`);
        const card = await fetchFile(server, meta.properties.get("og:image")!.slice(SITE.length), api.cookie);
        expect(card.status).toBe(200);
        expect(card.headers.get("content-type")).toBe("image/jpeg");
        // Anyone may read it by its link, but no shared cache keeps it as if it were public.
        expect(card.headers.get("cache-control")).toMatch(/^private, no-(cache|store)$/);
        expect((await api.get(`/api/memorials/${ids.unlisted}`)).json.id).toBe(ids.unlisted);
      }
    });

    it("is in no page or /api answer of the route table, searched for or not, while the public one with the same word is", async () => {
      const routes = (await routeTable()).filter((r) => !r.pattern.includes("*"));
      const seen = { public: 0 };
      for (const [who, api] of [
        ["a visitor", client(server.url)],
        ["another member", stranger],
      ] as const) {
        for (const route of routes) {
          // Its own address (and its sub-pages) is the link itself: the memorial opens there by design.
          const path = fillPattern(route.pattern, { id: ids.public, file: "memorials-1.xml" });
          const queries = route.pattern.includes(":") ? [""] : ["", `?search=${word}`, `?q=${word}`, `?userId=${ownerId}`, `?visibility=unlisted`];
          for (const query of queries) {
            const res = await api.get(`${path}${query}`);
            const where = `GET ${path}${query} as ${who} (${res.status})`;
            expect(res.text, where).not.toContain(ids.unlisted);
            expect(res.text, where).not.toContain(`${word}Una`);
            if (res.text.includes(`${word}Ada`)) seen.public++;
          }
        }
      }
      // The lists that show public memorials did show the public one: the check above could see a leak.
      expect(seen.public).toBeGreaterThan(10);
      for (const path of [`/memorials?search=${word}`, `/market?search=${word}`, `/api/memorials?search=${word}`, `/api/memorials?userId=${ownerId}`]) {
        const res = await client(server.url).get(path);
        expect(res.text, path).toContain(`${word}Ada`);
      }
    });

    it("is in its owner's own lists, with its badge", async () => {
      const mine = await owner.get("/api/memorials?visibility=unlisted");
      expect(mine.json.map((m: { id: string }) => m.id)).toEqual([ids.unlisted]);
      expect(mine.json[0].visibility).toBe("unlisted");
      const page = await owner.get("/my-memorials");
      expect(page.text).toContain(`${word}Una`);
      expect(page.text).toContain(">Unlisted<");
    });

    it("the /api takes unlisted as a visibility and refuses a visibility that is none of the four", async () => {
      const bad = await owner.post("/api/memorials", { firstName: "Bad", lastName: "Choice", visibility: "hidden" });
      expect(bad.status).toBe(400);
      expect(bad.json.errors.visibility).toEqual([VISIBILITY_CHOICE]);
      const list = await owner.get("/api/memorials?visibility=hidden");
      expect(list.status).toBe(400);
      expect(list.json.message).toBe("visibility must be public, unlisted, friends or private");
    });
  });

  describe("choosing Unlisted on the forms, without JavaScript", () => {
    const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
    const urlencoded = { "Content-Type": "application/x-www-form-urlencoded" };

    it("the Privacy tab's default preselects Unlisted on Create Memorial, and the create form makes an unlisted memorial", async () => {
      const member = (await registerMember(server.url, { firstName: "Nell", lastName: "New" })).api;
      const privacy = await member.request("POST", "/account/privacy", { body: form({ defaultVisibility: "unlisted" }), headers: urlencoded });
      expect(privacy.status).toBeLessThan(400);
      const page = await member.get("/memorials/create");
      expect(page.text).toMatch(/<input[^>]*value="unlisted"[^>]*checked=""|<input[^>]*checked=""[^>]*value="unlisted"/);
      expect(page.text).toContain("Anyone with the link can view it, but it is not shown in lists or search");
      const data = new FormData();
      for (const [k, v] of Object.entries({ firstName: "Nora", lastName: `${word}Nora`, visibility: "unlisted", category: "individual", intent: "publish" }))
        data.append(k, v);
      const request = new Request("http://x", { method: "POST", body: data });
      const created = await member.request("POST", "/memorials/create", {
        body: new Uint8Array(await request.arrayBuffer()),
        headers: { "Content-Type": request.headers.get("Content-Type")! },
      });
      expect(created.status).toBe(303);
      const id = /\/memorials\/([0-9a-f-]{36})$/.exec(created.headers.get("location") ?? "")?.[1];
      expect(id).toBeTruthy();
      expect((await member.get(`/api/memorials/${id}`)).json).toMatchObject({ visibility: "unlisted", isPublished: true });
      expect((await client(server.url).get(`/memorials/${id}`)).status).toBe(200);
      expect((await client(server.url).get("/sitemaps/memorials-1.xml")).text).not.toContain(id);
    });

    it("a visibility that is none of the four is refused on the Privacy tab with the field's message", async () => {
      const res = await owner.request("POST", "/account/privacy", { body: form({ defaultVisibility: "hidden" }), headers: urlencoded });
      expect(res.status).toBe(400);
      expect(res.text).toContain(VISIBILITY_CHOICE);
    });
  });

  describe("sitemap.xml and robots.txt", () => {
    const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
    /** The document's root element, checked to be in the sitemaps.org namespace, after the XML declaration and closed at the end. */
    const rootOf = (xml: string) => {
      const root = /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<(\w+) xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">\n/.exec(xml)?.[1];
      expect(root, xml.slice(0, 200)).toBeDefined();
      expect(xml.endsWith(`</${root}>\n`)).toBe(true);
      return root;
    };

    it("/sitemap.xml is a sitemap index at PUBLIC_URL naming the pages' child and the memorials' child, whatever the Host header", async () => {
      const res = await getWithForgedHost(server, "/sitemap.xml");
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toBe("application/xml; charset=utf-8");
      expect(res.headers["cache-control"]).toBe("public, no-cache");
      expect(rootOf(res.text)).toBe("sitemapindex");
      // Only <sitemap><loc>…</loc></sitemap> entries, each naming a child at PUBLIC_URL.
      expect(res.text.match(/<sitemap>/g)?.length).toBe(locs(res.text).length);
      expect(locs(res.text)).toEqual([`${SITE}/sitemaps/pages.xml`, `${SITE}/sitemaps/memorials-1.xml`]);
      expect(res.text).not.toContain(FORGED_HOST);
      // Asked again with its ETag: 304, nothing sent.
      const again = await client(server.url).get("/sitemap.xml", { headers: { "If-None-Match": String(res.headers.etag) } });
      expect(again.status).toBe(304);
      expect(again.text).toBe("");
    });

    it("its children list the public pages and exactly the published public memorials at PUBLIC_URL, never an unlisted, friends-only, private or draft one", async () => {
      const pages = await getWithForgedHost(server, "/sitemaps/pages.xml");
      expect(pages.status).toBe(200);
      expect(pages.headers["content-type"]).toBe("application/xml; charset=utf-8");
      expect(pages.headers["cache-control"]).toBe("public, no-cache");
      expect(rootOf(pages.text)).toBe("urlset");
      expect(locs(pages.text)).toEqual(
        ["/", "/memorials", "/products", "/news", "/endowment", "/help", "/contact", "/terms", "/privacy"].map((path) => `${SITE}${path}`),
      );

      const res = await getWithForgedHost(server, "/sitemaps/memorials-1.xml");
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toBe("application/xml; charset=utf-8");
      expect(res.headers["cache-control"]).toBe("public, no-cache");
      expect(rootOf(res.text)).toBe("urlset");
      expect(res.text.match(/<url>/g)?.length).toBe(locs(res.text).length);
      const urls = locs(res.text);
      expect(urls).toEqual(expect.arrayContaining([`${SITE}/memorials/${ids.public}`, `${SITE}/memorials/${ids.plain}`]));
      for (const state of ["unlisted", "friends", "private", "draft"] as const) expect(urls, state).not.toContain(`${SITE}/memorials/${ids[state]}`);
      expect(urls.every((u) => u.startsWith(`${SITE}/memorials/`))).toBe(true);
      expect(new Set(urls).size).toBe(urls.length);
      expect(res.text).toMatch(new RegExp(`<loc>${SITE}/memorials/${ids.public}</loc><lastmod>\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ</lastmod>`));
      const again = await client(server.url).get("/sitemaps/memorials-1.xml", { headers: { "If-None-Match": String(res.headers.etag) } });
      expect(again.status).toBe(304);
    });

    it("a child the index does not name is a plain 404, never a 500: past the end, or a malformed number", async () => {
      for (const file of [
        "memorials-2.xml",
        "memorials-0.xml",
        "memorials--1.xml",
        "memorials-1.5.xml",
        "memorials-01.xml",
        "memorials-999999999999.xml",
        "memorials-50000.xml",
        "memorials-abc.xml",
        "memorials-1e3.xml",
        "memorials-.xml",
        "memorials-1",
        "memorials-1.xml.gz",
        "pages",
        "sitemap.xml",
        "%20memorials-1.xml",
      ]) {
        const res = await client(server.url).get(`/sitemaps/${file}`);
        expect(res.status, file).toBe(404);
        expect(res.headers.get("content-type"), file).toBe("text/plain; charset=utf-8");
        expect(res.headers.get("cache-control"), file).toBe("no-store");
      }
    });

    it("follows a change of visibility at once: public → unlisted leaves the sitemap and gains noindex; back to public returns", async () => {
      const visitor = client(server.url);
      const child = "/sitemaps/memorials-1.xml";
      const etagBefore = (await visitor.get(child)).headers.get("etag")!;
      expect((await owner.put(`/api/memorials/${ids.plain}`, { visibility: "unlisted" })).status).toBe(200);
      const after = await visitor.get(child, { headers: { "If-None-Match": etagBefore } });
      expect(after.status).toBe(200);
      expect(locs(after.text)).not.toContain(`${SITE}/memorials/${ids.plain}`);
      expect(locs(after.text)).toContain(`${SITE}/memorials/${ids.public}`);
      const page = await visitor.get(`/memorials/${ids.plain}`);
      expect(page.status).toBe(200);
      expect(readMeta(page.text).names.get("robots")).toBe("noindex");
      expect((await visitor.get(`/memorials?search=${word}Pim`)).text).not.toContain(`/memorials/${ids.plain}`);

      expect((await owner.put(`/api/memorials/${ids.plain}`, { visibility: "public" })).status).toBe(200);
      expect(locs((await visitor.get(child)).text)).toContain(`${SITE}/memorials/${ids.plain}`);
      expect(readMeta((await visitor.get(`/memorials/${ids.plain}`)).text).names.get("robots")).toBeUndefined();
      expect((await visitor.get(`/memorials?search=${word}Pim`)).text).toContain(`/memorials/${ids.plain}`);
    });

    it("a memorial made private, friends-only or a draft, or deleted, leaves its child at once", async () => {
      const visitor = client(server.url);
      const child = "/sitemaps/memorials-1.xml";
      const created = await owner.post("/api/memorials", { firstName: "Gus", lastName: `${word}Gus`, visibility: "public", isPublished: true });
      expect(created.status, created.text).toBe(201);
      const address = `${SITE}/memorials/${created.json.id}`;
      expect(locs((await visitor.get(child)).text)).toContain(address);
      for (const change of [{ visibility: "private" }, { visibility: "friends" }, { isPublished: false }]) {
        expect((await owner.put(`/api/memorials/${created.json.id}`, change)).status).toBe(200);
        expect(locs((await visitor.get(child)).text), JSON.stringify(change)).not.toContain(address);
        expect((await owner.put(`/api/memorials/${created.json.id}`, { visibility: "public", isPublished: true })).status).toBe(200);
        expect(locs((await visitor.get(child)).text)).toContain(address);
      }
      expect((await owner.delete(`/api/memorials/${created.json.id}`)).status).toBe(200);
      const after = await visitor.get(child);
      expect(locs(after.text)).not.toContain(address);
      expect(locs(after.text)).toContain(`${SITE}/memorials/${ids.public}`);
    });

    it("robots.txt welcomes crawlers, keeps them off personal pages and the /api, and points to the sitemap at PUBLIC_URL", async () => {
      const res = await getWithForgedHost(server, "/robots.txt");
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8");
      const lines = res.text.split("\n");
      expect(lines[0]).toBe("User-agent: *");
      expect(lines).toEqual(expect.arrayContaining(["Allow: /", "Disallow: /api/", "Disallow: /account", "Disallow: /admin", `Sitemap: ${SITE}/sitemap.xml`]));
      expect(res.text).not.toContain(FORGED_HOST);
      // Link previews fetch memorial photos and cards: /media stays open to crawlers.
      expect(lines.filter((l) => l.startsWith("Disallow: /media"))).toEqual([]);
    });
  });
});

// The sitemap index past one child (docs/decisions/032-sitemap-index.md), at the real page size of 10,000:
// 10,005 listable memorials written straight into the database, a run of them made at the same instant across
// the boundary between the two children, and every kind that must never be listed made at that instant too.
describe.each(serverDatabases())("the sitemap index over two children on %s", (database) => {
  const LISTABLE = 10_005;
  let server: TestServer;
  let listable: string[] = [];
  let hidden: string[] = [];
  const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);

  beforeAll(async () => {
    server = await startServer(
      { PUBLIC_URL: SITE },
      {
        database,
        prepare: async (db) => {
          // Listable ones: a minute apart, but the last sixteen (from number 9,990) all at one instant, a tie on the
          // sort key across the boundary at 10,000; the hidden ones at that instant too, in every state that must stay out.
          await db.sql.exec(`
            INSERT INTO users (id, email, "firstName", "lastName", password) VALUES ('sitemap-owner', 'sitemap@example.test', 'Site', 'Owner', 'x');
            INSERT INTO memorials ("userId", title, "firstName", "lastName", visibility, "isPublished", "createdAt")
            SELECT 'sitemap-owner', 'In memory', 'Mary', 'Listed', 'public', true,
                   CASE WHEN g >= 9990 THEN timestamp '2020-01-01 00:00:00' ELSE timestamp '2010-01-01 00:00:00' + make_interval(mins => g) END
            FROM generate_series(1, ${LISTABLE}) AS g;
            INSERT INTO memorials ("userId", title, "firstName", "lastName", visibility, "isPublished", "createdAt")
            SELECT 'sitemap-owner', 'In memory', 'Mary', 'Hidden', s.visibility, s.published, timestamp '2020-01-01 00:00:00'
            FROM (VALUES ('unlisted', true), ('friends', true), ('private', true), ('public', false), ('public', true)) AS s(visibility, published), generate_series(1, 3);
            UPDATE memorial_records SET "deletedAt" = now() WHERE "lastName" = 'Hidden' AND visibility = 'public' AND "isPublished";
          `);
          const rows = await db.sql.query<{ id: string; lastName: string }>(`SELECT id, "lastName" FROM memorial_records`);
          listable = rows.filter((r) => r.lastName === "Listed").map((r) => r.id);
          hidden = rows.filter((r) => r.lastName === "Hidden").map((r) => r.id);
        },
      },
    );
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("the index names the pages and two memorial children; together they list every listable memorial exactly once and nothing else", async () => {
    expect(listable.length).toBe(LISTABLE);
    expect(hidden.length).toBe(15);
    const visitor = client(server.url);
    const index = await visitor.get("/sitemap.xml");
    expect(index.status).toBe(200);
    expect(index.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<sitemapindex xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">\n/);
    const children = locs(index.text);
    expect(children).toEqual([`${SITE}/sitemaps/pages.xml`, `${SITE}/sitemaps/memorials-1.xml`, `${SITE}/sitemaps/memorials-2.xml`]);

    const listed: string[] = [];
    const sizes: number[] = [];
    for (const child of children.slice(1)) {
      const res = await visitor.get(child.slice(SITE.length));
      expect(res.status, child).toBe(200);
      expect(res.text, child).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">\n/);
      const ids = locs(res.text).map((loc) => /^https:\/\/everlight\.example\/memorials\/([0-9a-f-]{36})$/.exec(loc)?.[1]);
      expect(ids.every(Boolean), child).toBe(true);
      sizes.push(ids.length);
      listed.push(...(ids as string[]));
    }
    expect(sizes).toEqual([10_000, LISTABLE - 10_000]);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...listable].sort());
    for (const id of hidden) expect(listed).not.toContain(id);
    expect((await visitor.get("/sitemaps/memorials-3.xml")).status).toBe(404);
  });
});
