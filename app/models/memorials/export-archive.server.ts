import path from "node:path";
import type { Readable } from "node:stream";
import { createHash } from "node:crypto";
import { mkdir, open } from "node:fs/promises";
import { prisma } from "~/services/db.server";
import { keyFromUrl, openObjectStream, statObject } from "~/services/storage.server";
import { ZipWriter } from "~/services/zip-stream.server";
import { EXPORT_MAX_BYTES } from "~/utils/memorial-export";
import { type TimelineEvent } from "./timeline.server";
import {
  BAGIT_TXT,
  bagInfo,
  manifest,
  renderIndexHtml,
  renderMemorialJson,
  STYLE_CSS,
  type ExportContent,
  type ExportMediaFile,
  type ExportMemorialEvent,
  type ExportPortrait,
  type ExportTribute,
} from "./export-files.server";

// The copy's archive itself: the memorial's record, its photos and videos, tributes, timeline and events,
// and the offline site, streamed into one ZIP file with a manifest of checksums. Bounded in size before a
// byte is written; progress is reported as it goes, so a lost lease stops the work.

/** The builder no longer holds its export (its lease ran out and another took it, or it was deleted). */
/** The memorial holds more than a copy may (EXPORT_MAX_BYTES): refused with a message, before anything is written. */
export class TooLargeExportError extends Error {}

/** How often a builder writes its progress (and renews its lease) at most. */
const PROGRESS_EVERY_MS = 1_000;

/** Tributes are read this many at a time while the files are written. */
const TRIBUTE_PAGE = 500;

export type ArchiveInput = {
  memorial: ExportContent["memorial"] & { userId: string };
  url: string;
  exportedAt: Date;
  portraitUrl: string | null;
  media: { id: string; mediaUrl: string; mediaType: string; caption: string | null; order: number; createdAt: Date }[];
  timeline: TimelineEvent[];
  events: ExportMemorialEvent[];
  tributeCount: number;
};

const EXTENSION = /\.([a-z0-9]{1,5})$/i;

/** Streams the whole bag into `file`; returns its size and how many stored files could not be read. */
export async function writeArchive(file: string, base: string, input: ArchiveInput, onProgress: (percent: number) => Promise<void>) {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const handle = await open(file, "w", 0o600);
  try {
    const zip = new ZipWriter(async (chunk) => void (await handle.write(chunk)));
    const root = `${base}/`;
    const manifestLines: { path: string; sha256: string }[] = [];
    let payloadBytes = 0;

    // What there is to copy, and how big: the progress is the share of these bytes written.
    const planned = await Promise.all(
      input.media.map(async (item, index) => {
        const key = keyFromUrl(item.mediaUrl);
        const info = key ? await statObject(key) : null;
        const kind: ExportMediaFile["kind"] = item.mediaType.startsWith("video/") ? "video" : "photo";
        const extension = EXTENSION.exec(key ?? "")?.[1]?.toLowerCase() ?? "bin";
        return { item, key, info, kind, file: `media/${String(index + 1).padStart(2, "0")}-${kind}.${extension}` };
      }),
    );
    const galleryUrls = new Set(input.media.map((m) => m.mediaUrl));
    const portraitKey = keyFromUrl(input.portraitUrl);
    const portraitInfo = portraitKey && !galleryUrls.has(input.portraitUrl!) ? await statObject(portraitKey) : null;
    const total = planned.reduce((sum, p) => sum + (p.info?.size ?? 0), 0) + (portraitInfo?.size ?? 0) + 1;
    if (total > EXPORT_MAX_BYTES) throw new TooLargeExportError();
    let done = 0;
    let lastBeat = Date.now();
    const progress = async () => {
      if (Date.now() - lastBeat < PROGRESS_EVERY_MS) return;
      lastBeat = Date.now();
      await onProgress((done / total) * 95);
    };

    /** Copies one stored object into data/<name>; null when it could not be read. */
    const copyStored = async (key: string, name: string) => {
      const stream = await openObjectStream(key);
      if (!stream) return null;
      const hash = createHash("sha256");
      const { size } = await zip.addFile(root + "data/" + name, beating(stream, progress), {
        onChunk: (chunk) => {
          hash.update(chunk);
          done += chunk.length;
        },
      });
      const sha256 = hash.digest("hex");
      manifestLines.push({ path: `data/${name}`, sha256 });
      payloadBytes += size;
      return { sha256, size };
    };

    const mediaFiles: ExportMediaFile[] = [];
    let missing = 0;
    for (const p of planned) {
      const copied = p.key && p.info ? await copyStored(p.key, p.file) : null;
      if (!copied) missing++;
      mediaFiles.push({
        id: p.item.id,
        kind: p.kind,
        contentType: p.item.mediaType,
        caption: p.item.caption,
        order: p.item.order,
        createdAt: p.item.createdAt,
        file: copied ? p.file : null,
        bytes: copied?.size ?? null,
        sha256: copied?.sha256 ?? null,
      });
    }

    let portrait: ExportPortrait = null;
    if (input.portraitUrl) {
      const inGallery = mediaFiles.find((m, i) => input.media[i].mediaUrl === input.portraitUrl && m.file);
      if (inGallery)
        portrait = { file: inGallery.file, contentType: inGallery.contentType, sourceUrl: input.portraitUrl, sha256: inGallery.sha256, bytes: inGallery.bytes };
      else {
        const extension = EXTENSION.exec(portraitKey ?? "")?.[1]?.toLowerCase() ?? "bin";
        const copied = portraitKey && portraitInfo ? await copyStored(portraitKey, `media/portrait.${extension}`) : null;
        if (portraitKey && !copied) missing++;
        portrait = {
          file: copied ? `media/portrait.${extension}` : null,
          contentType: copied ? portraitInfo!.contentType : null,
          sourceUrl: input.portraitUrl,
          sha256: copied?.sha256 ?? null,
          bytes: copied?.size ?? null,
        };
      }
    }

    const content: ExportContent = {
      memorial: input.memorial,
      url: input.url,
      exportedAt: input.exportedAt,
      portrait,
      media: mediaFiles,
      // An event's photo is always one of the gallery's photos: it points at that file in the ZIP, or at none.
      timeline: input.timeline.map(({ photo: _photo, ...e }) => ({
        ...e,
        photoFile: mediaFiles.find((m) => m.id === e.photoId && m.kind === "photo")?.file ?? null,
      })),
      events: input.events,
      tributeCount: input.tributeCount,
      tributes: () => approvedTributePages(input.memorial.id),
    };
    const addGenerated = async (name: string, source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>) => {
      const hash = createHash("sha256");
      const { size } = await zip.addFile(root + "data/" + name, source, { onChunk: (chunk) => hash.update(chunk) });
      manifestLines.push({ path: `data/${name}`, sha256: hash.digest("hex") });
      payloadBytes += size;
    };
    await addGenerated("index.html", renderIndexHtml(content));
    await addGenerated("style.css", [Buffer.from(STYLE_CSS)]);
    await addGenerated("memorial.json", renderMemorialJson(content));

    // The tag files, and a tag manifest over them (RFC 8493 §2.2.1).
    const tags: [string, Buffer][] = [
      ["bagit.txt", Buffer.from(BAGIT_TXT)],
      ["bag-info.txt", Buffer.from(bagInfo(content, payloadBytes, manifestLines.length))],
      ["manifest-sha256.txt", Buffer.from(manifest(manifestLines))],
    ];
    for (const [name, body] of tags) await zip.addFile(root + name, [body]);
    const tagLines = tags.map(([name, body]) => ({ path: name, sha256: createHash("sha256").update(body).digest("hex") }));
    await zip.addFile(root + "tagmanifest-sha256.txt", [Buffer.from(manifest(tagLines))]);
    const bytes = await zip.finish();
    await handle.sync();
    return { bytes, missing };
  } finally {
    await handle.close();
  }
}

/** Approved tributes, oldest first, a page at a time (keyset on createdAt and id). */
async function* approvedTributePages(memorialId: string): AsyncGenerator<ExportTribute[]> {
  let after: { createdAt: Date; id: string } | null = null;
  for (;;) {
    const page: ExportTribute[] = await prisma().tribute.findMany({
      where: {
        memorialId,
        isApproved: true,
        ...(after ? { OR: [{ createdAt: { gt: after.createdAt } }, { createdAt: after.createdAt, id: { gt: after.id } }] } : {}),
      },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: TRIBUTE_PAGE,
      select: { id: true, authorName: true, content: true, createdAt: true },
    });
    if (page.length) yield page;
    if (page.length < TRIBUTE_PAGE) return;
    after = page[page.length - 1];
  }
}

/** Passes a stored file's chunks on, writing progress between them (at most once a second). */
async function* beating(stream: Readable, progress: () => Promise<void>): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of stream) {
      yield chunk as Uint8Array;
      await progress();
    }
  } finally {
    stream.destroy();
  }
}
