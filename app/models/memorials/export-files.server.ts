import type { Memorial } from "~/generated/prisma/client";
import { formatLongDate, toIsoDate } from "~/utils/dates";
import { EVENT_KIND_LABELS, formatEventWhen, isPastEvent, type EventKind } from "~/utils/events";
import { EXPORT_SCHEMA, EXPORT_SCHEMA_VERSION } from "~/utils/memorial-export";
import { formatTimelineDate, TIMELINE_KIND_LABELS, timelineDateTime, timelinePrecision, type TimelineEventFields, type TimelineKind } from "~/utils/timeline";

// The files of a memorial's copy other than its photos and videos: the page that opens
// from the file system (data/index.html with data/style.css: no script, relative links only, laid out like
// the memorial page and readable at 390 px), memorial.json (schema in docs/memorial-export.md) and the
// BagIt tag files. Tributes come in pages (an async iterable), so a memorial with thousands of them is
// written out as it is read, never held whole.

/** The memorial's own fields, as the database holds them (the "memorials" view's row). */
export type ExportMemorial = Pick<
  Memorial,
  | "id"
  | "title"
  | "firstName"
  | "lastName"
  | "dateOfBirth"
  | "dateOfPassing"
  | "biography"
  | "visibility"
  | "category"
  | "isPublished"
  | "viewCount"
  | "createdAt"
  | "updatedAt"
>;

export type ExportMediaFile = {
  id: string;
  kind: "photo" | "video";
  contentType: string;
  caption: string | null;
  order: number;
  createdAt: Date;
  /** Path inside data/, e.g. "media/01-photo.jpg"; null when the stored file could not be read. */
  file: string | null;
  bytes: number | null;
  sha256: string | null;
};

export type ExportPortrait = { file: string | null; contentType: string | null; sourceUrl: string; sha256: string | null; bytes: number | null } | null;

export type ExportTribute = { id: string; authorName: string; content: string; createdAt: Date };

/** A life-timeline event; `photoFile` is the path of its photo inside data/, when that photo is in the ZIP. */
export type ExportTimelineEvent = TimelineEventFields & {
  id: string;
  photoId: string | null;
  photoFile: string | null;
  createdAt: Date;
  updatedAt: Date;
};

/**
 * A gathering on the memorial: its date and times as the family gave them, in its own time
 * zone, and its reply totals as the family's replies page counts them (not who replied: docs/memorial-export.md).
 */
export type ExportMemorialEvent = {
  id: string;
  kind: string;
  title: string;
  startDate: Date;
  startTime: string;
  endTime: string | null;
  timeZone: string;
  startsAt: Date;
  endsAt: Date | null;
  placeName: string;
  address: string | null;
  livestreamUrl: string | null;
  note: string | null;
  replyTotals: { replies: number; people: number };
  createdAt: Date;
  updatedAt: Date;
};

export type ExportContent = {
  memorial: ExportMemorial;
  /** The memorial's address on the site when it was exported. */
  url: string;
  exportedAt: Date;
  portrait: ExportPortrait;
  media: ExportMediaFile[];
  /** The life timeline in date order (at most TIMELINE_MAX_EVENTS). */
  timeline: ExportTimelineEvent[];
  /** The memorial's events, past and coming, in start-time order (at most EVENT_MAX_PER_MEMORIAL). */
  events: ExportMemorialEvent[];
  tributeCount: number;
  tributes: () => AsyncIterable<ExportTribute[]>;
};

const encoder = new TextEncoder();

export function escapeHtml(text: string) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

function fullName(m: ExportMemorial) {
  return `${m.firstName} ${m.lastName}`.trim();
}

function paragraphs(text: string | null) {
  return (text ?? "").split(/\n\s*\n/).filter((p) => p.trim());
}

/** data/index.html, chunk by chunk. */
export async function* renderIndexHtml(content: ExportContent): AsyncGenerator<Uint8Array> {
  const m = content.memorial;
  const name = escapeHtml(fullName(m));
  const dates = m.dateOfBirth || m.dateOfPassing ? `${formatLongDate(m.dateOfBirth) || "Unknown"} – ${formatLongDate(m.dateOfPassing) || "Unknown"}` : "";
  const bio = paragraphs(m.biography);
  const photos = content.media.filter((x) => x.kind === "photo" && x.file);
  const videos = content.media.filter((x) => x.kind === "video" && x.file);
  let head = `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${name} · In memory</title>
<link rel="stylesheet" href="style.css">
</head>
<body>
<main class="page">
<header class="hero">
${content.portrait?.file ? `<img class="portrait" src="${escapeHtml(content.portrait.file)}" alt="Portrait of ${name}" width="192" height="192">` : ""}
<div class="who">
<h1>${name}</h1>
${dates ? `<p class="dates">${escapeHtml(dates)}</p>` : ""}
${m.title && m.title !== fullName(m) ? `<p class="subtitle">${escapeHtml(m.title)}</p>` : ""}
</div>
</header>
<section aria-labelledby="biography-heading">
<h2 id="biography-heading">Life story</h2>
${bio.length ? bio.map((p) => `<p class="story">${escapeHtml(p.trim())}</p>`).join("\n") : "<p>No biography was added.</p>"}
</section>
${renderTimelineHtml(content.timeline, fullName(m))}${renderEventsHtml(content.events)}`;
  if (photos.length || videos.length) {
    head += `<section aria-labelledby="gallery-heading">
<h2 id="gallery-heading">Photos and videos</h2>
<ul class="gallery">
${photos
  .map(
    (p, i) =>
      `<li><figure><a href="${escapeHtml(p.file!)}"><img src="${escapeHtml(p.file!)}" alt="${escapeHtml(p.caption || `Photo ${i + 1} of ${fullName(m)}`)}" loading="lazy"></a>${p.caption ? `<figcaption>${escapeHtml(p.caption)}</figcaption>` : ""}</figure></li>`,
  )
  .join("\n")}
${videos
  .map(
    (v, i) =>
      `<li class="wide"><figure><video controls preload="metadata" src="${escapeHtml(v.file!)}" aria-label="${escapeHtml(v.caption || `Video ${i + 1} of ${fullName(m)}`)}"></video><figcaption>${v.caption ? escapeHtml(v.caption) + " · " : ""}<a href="${escapeHtml(v.file!)}">Open the video file</a></figcaption></figure></li>`,
  )
  .join("\n")}
</ul>
</section>
`;
  }
  head += `<section aria-labelledby="tributes-heading">
<h2 id="tributes-heading">Tributes (${content.tributeCount})</h2>
`;
  yield encoder.encode(head);
  if (content.tributeCount === 0) yield encoder.encode("<p>No tributes were shared.</p>\n");
  else {
    yield encoder.encode('<ol class="tributes">\n');
    for await (const page of content.tributes()) {
      yield encoder.encode(
        page
          .map(
            (t) =>
              `<li><article><h3>${escapeHtml(t.authorName)}</h3><p class="when"><time datetime="${t.createdAt.toISOString()}">${formatLongDate(t.createdAt)}</time></p>${paragraphs(
                t.content,
              )
                .map((p) => `<p>${escapeHtml(p.trim())}</p>`)
                .join("")}</article></li>\n`,
          )
          .join(""),
      );
    }
    yield encoder.encode("</ol>\n");
  }
  yield encoder.encode(`</section>
</main>
<footer class="foot">
<p>A copy of the memorial of ${name} on Everlight, made on ${formatLongDate(content.exportedAt)}. The memorial online: <a href="${escapeHtml(content.url)}">${escapeHtml(content.url)}</a>.</p>
<p>The same details as data are in <a href="memorial.json">memorial.json</a>.</p>
</footer>
</body>
</html>
`);
}

/** The life timeline as an ordered list, in date order; nothing when there are no events. */
function renderTimelineHtml(events: ExportTimelineEvent[], person: string) {
  if (!events.length) return "";
  const items = events.map((e) => {
    const kind = TIMELINE_KIND_LABELS[e.kind as TimelineKind] ?? e.kind;
    const photo = e.photoFile
      ? `<a class="moment-photo" href="${escapeHtml(e.photoFile)}"><img src="${escapeHtml(e.photoFile)}" alt="${escapeHtml(`Photo for “${e.title}”, from the life of ${person}`)}" loading="lazy"></a>`
      : "";
    return `<li><p class="when"><time datetime="${timelineDateTime(e)}">${escapeHtml(formatTimelineDate(e))}</time> · ${escapeHtml(kind)}</p><h3>${escapeHtml(e.title)}</h3>${
      e.description ? `<p class="story">${escapeHtml(e.description)}</p>` : ""
    }${photo}</li>`;
  });
  return `<section aria-labelledby="timeline-heading">
<h2 id="timeline-heading">Life timeline</h2>
<ol class="timeline">
${items.join("\n")}
</ol>
</section>
`;
}

function replyTotals({ replies, people }: ExportMemorialEvent["replyTotals"]) {
  return `${replies} ${replies === 1 ? "reply" : "replies"}, ${people} ${people === 1 ? "person" : "people"} in all`;
}

/** The memorial's events in start-time order, past and coming alike, as the event page shows each; nothing when there are none. */
function renderEventsHtml(events: ExportMemorialEvent[]) {
  if (!events.length) return "";
  const items = events.map((e) => {
    const kind = EVENT_KIND_LABELS[e.kind as EventKind] ?? e.kind;
    const place = `<p class="place">${escapeHtml(e.placeName)}${e.address ? `<span class="address">${escapeHtml(e.address)}</span>` : ""}</p>`;
    const livestream = e.livestreamUrl ? `<p>Livestream: <a href="${escapeHtml(e.livestreamUrl)}">${escapeHtml(e.livestreamUrl)}</a></p>` : "";
    const note = e.note ? `<p class="story">${escapeHtml(e.note)}</p>` : "";
    const replies = e.replyTotals.replies ? `<p class="replies">Replies: ${replyTotals(e.replyTotals)}</p>` : "";
    return `<li id="event-${escapeHtml(e.id)}"><p class="when">${escapeHtml(kind)}</p><h3>${escapeHtml(e.title)}</h3><p><time datetime="${e.startsAt.toISOString()}">${escapeHtml(
      formatEventWhen(e),
    )}</time></p>${place}${livestream}${note}${replies}</li>`;
  });
  return `<section aria-labelledby="events-heading">
<h2 id="events-heading">Events</h2>
<ol class="events">
${items.join("\n")}
</ol>
</section>
`;
}

/** data/style.css: the memorial page's look in plain CSS (no web fonts, nothing fetched). */
export const STYLE_CSS = `*{box-sizing:border-box}
body{margin:0;background:#fafaf9;color:#292524;font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.page{max-width:56rem;margin:0 auto;padding:2rem 1rem;background:#fff}
h1,h2,h3{font-family:Georgia,"Times New Roman",serif;color:#1c1917;line-height:1.25}
h1{font-size:2.25rem;margin:0}
h2{font-size:1.5rem;margin:2.5rem 0 .75rem}
h3{font-size:1.05rem;margin:0}
a{color:#632c48}
.hero{display:flex;flex-direction:column;align-items:center;gap:1.5rem;text-align:center}
@media (min-width:640px){.hero{flex-direction:row;align-items:flex-end;text-align:left}}
.portrait{width:10rem;height:10rem;border-radius:50%;object-fit:cover;border:4px solid #fff;box-shadow:0 4px 12px rgba(15,23,42,.15);flex-shrink:0}
.who{min-width:0;overflow-wrap:anywhere}
.dates{font-size:1.125rem;color:#44403c;margin:.5rem 0 0}
.subtitle{font-style:italic;color:#44403c;margin:.25rem 0 0}
.story{white-space:pre-line;overflow-wrap:anywhere}
.gallery{list-style:none;padding:0;margin:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(10rem,1fr));gap:.75rem}
.gallery .wide{grid-column:1/-1}
.gallery figure{margin:0}
.gallery img{display:block;width:100%;aspect-ratio:1;object-fit:cover;border-radius:.5rem;background:#e7e5e4}
.gallery video{display:block;width:100%;max-height:24rem;border-radius:.5rem;background:#000}
figcaption{font-size:.875rem;color:#44403c;margin-top:.25rem;overflow-wrap:anywhere}
.tributes{list-style:none;padding:0;margin:0;display:grid;gap:1rem}
.tributes article{border:1px solid #e7e5e4;border-radius:.5rem;padding:1rem;overflow-wrap:anywhere}
.when{font-size:.875rem;color:#57534e;margin:.125rem 0 .5rem}
.timeline{list-style:none;margin:0;padding:0 0 0 1.25rem;border-left:2px solid #e4cdd7}
.timeline li{padding-bottom:1.5rem;overflow-wrap:anywhere}
.events{list-style:none;padding:0;margin:0;display:grid;gap:1rem}
.events li{border:1px solid #e7e5e4;border-radius:.5rem;padding:1rem;overflow-wrap:anywhere}
.events p{margin:.25rem 0}
.address{display:block;font-size:.875rem;color:#44403c}
.replies{font-size:.875rem;color:#44403c}
.moment-photo img{display:block;width:10rem;max-width:100%;aspect-ratio:4/3;object-fit:cover;border-radius:.5rem;margin-top:.5rem}
.foot{max-width:56rem;margin:0 auto;padding:1rem;font-size:.875rem;color:#57534e;overflow-wrap:anywhere}
`;

function isoDate(d: Date | null) {
  return d ? toIsoDate(d) : null;
}

/** data/memorial.json, chunk by chunk: one object (docs/memorial-export.md), tributes streamed into its last field. */
export async function* renderMemorialJson(content: ExportContent): AsyncGenerator<Uint8Array> {
  const m = content.memorial;
  const head = {
    schema: EXPORT_SCHEMA,
    version: EXPORT_SCHEMA_VERSION,
    exportedAt: content.exportedAt.toISOString(),
    source: { site: "Everlight", url: content.url },
    memorial: {
      id: m.id,
      title: m.title,
      firstName: m.firstName,
      lastName: m.lastName,
      dateOfBirth: isoDate(m.dateOfBirth),
      dateOfPassing: isoDate(m.dateOfPassing),
      biography: m.biography,
      visibility: m.visibility,
      category: m.category,
      isPublished: m.isPublished,
      viewCount: m.viewCount,
      createdAt: m.createdAt.toISOString(),
      updatedAt: m.updatedAt.toISOString(),
    },
    portrait: content.portrait,
    media: content.media.map((x) => ({ ...x, createdAt: x.createdAt.toISOString(), missing: x.file === null })),
    timeline: content.timeline.map((e) => ({
      id: e.id,
      kind: e.kind,
      date: timelineDateTime(e),
      precision: timelinePrecision(e),
      title: e.title,
      description: e.description,
      photo: e.photoId ? { mediaId: e.photoId, file: e.photoFile } : null,
      createdAt: e.createdAt.toISOString(),
      updatedAt: e.updatedAt.toISOString(),
    })),
    events: content.events.map((e) => ({
      id: e.id,
      kind: e.kind,
      kindLabel: EVENT_KIND_LABELS[e.kind as EventKind] ?? e.kind,
      title: e.title,
      date: toIsoDate(e.startDate),
      startTime: e.startTime,
      endTime: e.endTime,
      timeZone: e.timeZone,
      when: formatEventWhen(e),
      startsAt: e.startsAt.toISOString(),
      endsAt: e.endsAt?.toISOString() ?? null,
      placeName: e.placeName,
      address: e.address,
      livestreamUrl: e.livestreamUrl,
      note: e.note,
      past: isPastEvent(e, content.exportedAt),
      replies: { count: e.replyTotals.replies, people: e.replyTotals.people },
      createdAt: e.createdAt.toISOString(),
      updatedAt: e.updatedAt.toISOString(),
    })),
    tributeCount: content.tributeCount,
  };
  const text = JSON.stringify(head, null, 2);
  // The object without its closing brace, then "tributes": [ … ] written as they are read.
  yield encoder.encode(`${text.slice(0, text.lastIndexOf("}")).trimEnd()},\n  "tributes": [`);
  let first = true;
  for await (const page of content.tributes()) {
    for (const t of page) {
      const item = JSON.stringify({ id: t.id, authorName: t.authorName, content: t.content, createdAt: t.createdAt.toISOString() });
      yield encoder.encode(`${first ? "\n" : ",\n"}    ${item}`);
      first = false;
    }
  }
  yield encoder.encode(`${first ? "" : "\n  "}]\n}\n`);
}

/** bagit.txt (BagIt 1.0, RFC 8493 §2.1.1). */
export const BAGIT_TXT = "BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n";

/** bag-info.txt (RFC 8493 §2.2.2): who made it, when, and the payload's size (Payload-Oxum). */
export function bagInfo(content: ExportContent, payloadBytes: number, payloadFiles: number) {
  return [
    "Source-Organization: Everlight",
    `Bagging-Date: ${toIsoDate(content.exportedAt)}`,
    `External-Identifier: ${content.memorial.id}`,
    `External-Description: A copy of the memorial of ${fullName(content.memorial).replace(/[\r\n]+/g, " ")}: its life story, life timeline, events, photos, videos and tributes. Open data/index.html in a browser; the details as data are in data/memorial.json.`,
    `Payload-Oxum: ${payloadBytes}.${payloadFiles}`,
    `Bag-Software-Agent: Everlight memorial export (schema ${EXPORT_SCHEMA} version ${EXPORT_SCHEMA_VERSION})`,
    "",
  ].join("\n");
}

/** A manifest: "<sha256>  <path>" lines (RFC 8493 §2.1.3). */
export function manifest(lines: { path: string; sha256: string }[]) {
  return lines.map((l) => `${l.sha256}  ${l.path}\n`).join("");
}
