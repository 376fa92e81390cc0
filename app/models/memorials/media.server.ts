import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { isGoneMeanwhile, prisma, unlessGone } from "~/services/db.server";
import { queueFollowDigests } from "../mail/follower-digests.server";
import { editableWhere } from "./access.server";
import { detectImageType, toSocialCard, type ImageType } from "~/services/images.server";
import { deleteObject, getObject, keyFromUrl, objectUrl, putObject } from "~/services/storage.server";
import { DEFAULT_SOCIAL_CARD } from "~/utils/site";
import { describeBytes, MEDIA_LIMITS } from "~/utils/upload-limits";

// Photos and videos of memorials. What a file is comes from its
// bytes, never its name. Photos are stored as an upright "original" with every piece of metadata
// (EXIF, GPS) removed, plus WebP copies at three widths for phones; videos are stored as uploaded.
// Every file of a memorial lives under memorials/<memorialId>/, which is how the media route knows
// whose visibility rules apply (app/routes/media.$.ts).

export { MEDIA_LIMITS } from "~/utils/upload-limits";

export const MEDIA_MESSAGES = {
  type: "This file is not a photo or video we can use. Please choose a JPEG, PNG, GIF or WebP photo, or an MP4, WebM or MOV video.",
  imageSize: `This photo is larger than ${describeBytes(MEDIA_LIMITS.imageBytes)}. Please choose a smaller one.`,
  videoSize: `This video is larger than ${describeBytes(MEDIA_LIMITS.videoBytes)}. Please choose a shorter one.`,
  unreadable: "This photo could not be read. It may be damaged; please try another.",
  tooMany: `A memorial can hold up to ${MEDIA_LIMITS.filesPerMemorial} photos and videos.`,
  badDataUrl: "Invalid media data",
} as const;

export class MediaRejectedError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 413 | 415,
  ) {
    super(message);
    this.name = "MediaRejectedError";
  }
}

export type VideoType = "video/mp4" | "video/webm" | "video/quicktime";

/** Video container by magic bytes: ISO BMFF (MP4/MOV) or Matroska/WebM. */
export function detectVideoType(bytes: Uint8Array): VideoType | null {
  const at = (offset: number, text: string) => [...text].every((c, i) => bytes[offset + i] === c.charCodeAt(0));
  if (bytes.length >= 12 && at(4, "ftyp")) return at(8, "qt  ") ? "video/quicktime" : "video/mp4";
  if (bytes.length >= 4 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return "video/webm";
  return null;
}

export const IMAGE_WIDTHS = [480, 960, 1600] as const;
/** Where photos stored with their resized copies live: memorials' media, and products' pictures (commerce/products.server.ts). */
const RESIZED_PREFIXES = ["memorials/", "products/"] as const;
const EXTENSIONS: Record<ImageType | VideoType, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/gif": "gif",
  "image/webp": "webp",
  "video/mp4": "mp4",
  "video/webm": "webm",
  "video/quicktime": "mov",
};

const MAX_INPUT_PIXELS = 100_000_000;

/** Stores an upright, metadata-free original and WebP copies at IMAGE_WIDTHS under `prefix` (products use it too). */
export async function storeImage(prefix: string, bytes: Uint8Array, type: ImageType) {
  let original: Buffer;
  let variants: Buffer[];
  try {
    const source = () => sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error", animated: type === "image/gif" });
    // The original is re-encoded in its own format: upright, full size, with no metadata left in it.
    original =
      type === "image/jpeg"
        ? await source().rotate().jpeg({ quality: 90, mozjpeg: true }).toBuffer()
        : type === "image/png"
          ? await source().rotate().png().toBuffer()
          : type === "image/webp"
            ? await source().rotate().webp({ quality: 90 }).toBuffer()
            : await source().gif().toBuffer();
    variants = await Promise.all(
      IMAGE_WIDTHS.map((width) =>
        sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" })
          .rotate()
          .resize({ width, withoutEnlargement: true })
          .webp({ quality: 78 })
          .toBuffer(),
      ),
    );
  } catch {
    throw new MediaRejectedError(MEDIA_MESSAGES.unreadable, 400);
  }
  const originalKey = `${prefix}/original.${EXTENSIONS[type]}`;
  await putObject(originalKey, original, type);
  await Promise.all(IMAGE_WIDTHS.map((w, i) => putObject(`${prefix}/w${w}.webp`, variants[i], "image/webp")));
  return objectUrl(originalKey);
}

/** Checks and stores one uploaded file of a memorial; returns its URL and real type. Nothing is stored on refusal. */
export async function storeMemorialFile(memorialId: string, file: Uint8Array | Blob, options: { imagesOnly?: boolean } = {}) {
  // A Blob may be a file on disk (an upload, app/request/multipart.server.ts): only its first bytes are
  // read to know what it is, a video is streamed to storage, and only a photo (20 MB at most) is read whole.
  const head = file instanceof Blob ? new Uint8Array(await file.slice(0, 16).arrayBuffer()) : file;
  const size = file instanceof Blob ? file.size : file.byteLength;
  const image = detectImageType(head);
  const video = image || options.imagesOnly ? null : detectVideoType(head);
  if (!image && !video) throw new MediaRejectedError(MEDIA_MESSAGES.type, 415);
  const prefix = `memorials/${memorialId}/${randomUUID()}`;
  if (image) {
    if (size > MEDIA_LIMITS.imageBytes) throw new MediaRejectedError(MEDIA_MESSAGES.imageSize, 413);
    const bytes = file instanceof Blob ? new Uint8Array(await file.arrayBuffer()) : file;
    return { mediaUrl: await storeImage(prefix, bytes, image), mediaType: image as string };
  }
  if (size > MEDIA_LIMITS.videoBytes) throw new MediaRejectedError(MEDIA_MESSAGES.videoSize, 413);
  const key = `${prefix}/original.${EXTENSIONS[video!]}`;
  await putObject(key, file, video!);
  return { mediaUrl: objectUrl(key), mediaType: video as string };
}

/** Every stored object behind one of our media URLs (the original and its resized copies). */
export function storedKeys(mediaUrl: string): string[] {
  const key = keyFromUrl(mediaUrl);
  if (!key || !RESIZED_PREFIXES.some((prefix) => key.startsWith(prefix))) return [];
  const folder = key.slice(0, key.lastIndexOf("/"));
  return [key, ...IMAGE_WIDTHS.map((w) => `${folder}/w${w}.webp`), `${folder}/${SOCIAL_CARD_FILE}`];
}

/** Removes stored files; a file that cannot be removed is logged, never fails the user's action. */
export async function deleteStoredMedia(urls: string[]) {
  await Promise.all(urls.flatMap(storedKeys).map((key) => deleteObject(key).catch((error) => console.error(`Could not delete ${key}:`, error))));
}

/** The responsive sources of a stored photo; outside or demo images are used as they are. */
export function imageSources(mediaUrl: string): { src: string; srcSet?: string; full: string } {
  const key = keyFromUrl(mediaUrl);
  if (!key || !RESIZED_PREFIXES.some((prefix) => key.startsWith(prefix)) || !/\/original\.(jpg|png|webp|gif)$/.test(key))
    return { src: mediaUrl, full: mediaUrl };
  const base = mediaUrl.slice(0, mediaUrl.lastIndexOf("/"));
  return {
    src: `${base}/w960.webp`,
    srcSet: IMAGE_WIDTHS.map((w) => `${base}/w${w}.webp ${w}w`).join(", "),
    full: `${base}/w1600.webp`,
  };
}

// Social cards (docs/decisions/027-sharing-and-unlisted.md): a memorial portrait's link
// preview picture lives beside its other copies as card.jpg, made from the largest copy the first time it
// is asked for (portraits stored before cards existed get theirs too), then kept and served like the rest.
const SOCIAL_CARD_FILE = "card.jpg";
const SOCIAL_CARD_KEY = /^(memorials\/[0-9a-f-]{36}\/[0-9a-f-]{36})\/card\.jpg$/;

/** The absolute-path address of a portrait's social card; the site's own card when there is no stored portrait. */
export function socialCardPath(profileImageUrl: string | null): string {
  const key = profileImageUrl ? keyFromUrl(profileImageUrl) : null;
  if (!key || !key.startsWith("memorials/") || !/\/original\.(jpg|png|webp|gif)$/.test(key)) return DEFAULT_SOCIAL_CARD;
  return objectUrl(`${key.slice(0, key.lastIndexOf("/"))}/${SOCIAL_CARD_FILE}`);
}

/** A stored memorial photo's social card, made and kept on first request; null when the key is not one or the photo is gone. */
export async function socialCardObject(key: string): Promise<{ body: Buffer; contentType: string } | null> {
  const folder = SOCIAL_CARD_KEY.exec(key)?.[1];
  if (!folder) return null;
  const kept = await getObject(key);
  if (kept) return kept;
  const source = await getObject(`${folder}/w${IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1]}.webp`);
  if (!source) return null;
  const body = await toSocialCard(source.body).catch(() => null);
  if (!body) return null;
  await putObject(key, body, "image/jpeg");
  return { body, contentType: "image/jpeg" };
}

/** Adds a photo or video to a memorial the caller owns. Null when the memorial is not theirs. */
export async function addMemorialMedia(
  memorialId: string,
  ownerId: string,
  bytes: Uint8Array | Blob,
  options: { caption?: string | null; order?: number } = {},
) {
  const memorial = await prisma().memorial.findFirst({
    where: { id: memorialId, ...editableWhere(ownerId) },
    select: { id: true, _count: { select: { media: true } } },
  });
  if (!memorial) return null;
  if (memorial._count.media >= MEDIA_LIMITS.filesPerMemorial) throw new MediaRejectedError(MEDIA_MESSAGES.tooMany, 400);
  const stored = await storeMemorialFile(memorialId, bytes);
  try {
    // The memorial's version (updatedAt) moves with its gallery in the database (a trigger); its
    // followers hear of the photo in their next digest.
    return await prisma().$transaction(async (tx) => {
      const created = await tx.memorialMedia.create({
        data: {
          memorialId,
          mediaUrl: stored.mediaUrl,
          mediaType: stored.mediaType,
          caption: options.caption ?? null,
          order: options.order ?? memorial._count.media,
        },
      });
      await queueFollowDigests(tx, memorialId);
      return created;
    });
  } catch (error) {
    await deleteStoredMedia([stored.mediaUrl]);
    // The memorial was deleted while its file was being stored: it is simply gone.
    if (isGoneMeanwhile(error)) return null;
    throw error;
  }
}

/** Replaces the memorial's profile photo (images only); the old one's files are removed. */
export async function setMemorialPortrait(memorialId: string, ownerId: string, bytes: Uint8Array | Blob) {
  const memorial = await prisma().memorial.findFirst({ where: { id: memorialId, ...editableWhere(ownerId) }, select: { profileImageUrl: true } });
  if (!memorial) return null;
  const stored = await storeMemorialFile(memorialId, bytes, { imagesOnly: true });
  const updated = await unlessGone(prisma().memorial.update({ where: { id: memorialId }, data: { profileImageUrl: stored.mediaUrl } }));
  if (!updated) {
    await deleteStoredMedia([stored.mediaUrl]);
    return null;
  }
  await deleteReplacedPortrait(memorialId, memorial.profileImageUrl);
  return updated;
}

export async function removeMemorialPortrait(memorialId: string, ownerId: string) {
  const memorial = await prisma().memorial.findFirst({ where: { id: memorialId, ...editableWhere(ownerId) }, select: { profileImageUrl: true } });
  if (!memorial) return null;
  const updated = await unlessGone(prisma().memorial.update({ where: { id: memorialId }, data: { profileImageUrl: null } }));
  if (!updated) return null;
  await deleteReplacedPortrait(memorialId, memorial.profileImageUrl);
  return updated;
}

/**
 * Deletes one media item of a memorial the caller owns. False when not found or not theirs: an
 * administrator may remove a whole memorial, never single photos of a family's (access-rules.ts).
 */
export async function deleteMediaItem(mediaId: string, owner: { id: string }) {
  const item = await prisma().memorialMedia.findFirst({
    where: { id: mediaId, memorial: editableWhere(owner.id) },
    select: { id: true, mediaUrl: true, memorialId: true },
  });
  if (!item) return false;
  // deleteMany/updateMany: the same photo (or its memorial) removed at the same moment is no error.
  // A photo that was also the portrait takes the portrait with it, so no page points at a gone file.
  await prisma().$transaction([
    prisma().memorialMedia.deleteMany({ where: { id: item.id } }),
    prisma().memorial.updateMany({ where: { id: item.memorialId, profileImageUrl: item.mediaUrl }, data: { profileImageUrl: null } }),
  ]);
  await deleteStoredMedia([item.mediaUrl]);
  return true;
}

// ---------------------------------------------------------------------------------------------------
// /api additions (app/routes/api.memorials.*): the media list and the /api shape of an item.
// ---------------------------------------------------------------------------------------------------

/** A media item in the /api shape. */
export function toApiMedia(item: {
  id: string;
  memorialId: string;
  mediaUrl: string;
  mediaType: string;
  caption: string | null;
  order: number;
  createdAt: Date;
}) {
  return {
    id: item.id,
    memorialId: item.memorialId,
    mediaUrl: item.mediaUrl,
    mediaType: item.mediaType,
    caption: item.caption,
    order: item.order,
    createdAt: item.createdAt.toISOString(),
  };
}

/** A memorial's media in gallery order; the caller has already checked that the viewer may see it. */
export async function listMediaForMemorial(memorialId: string) {
  const items = await prisma().memorialMedia.findMany({
    where: { memorialId },
    orderBy: [{ order: "asc" }, { createdAt: "asc" }],
    take: MEDIA_LIMITS.filesPerMemorial,
  });
  return items.map(toApiMedia);
}

/**
 * Whether a profileImageUrl sent by PUT /api/memorials/{id} may be stored on that memorial: none, its
 * current portrait, one of its own photos, or a picture shipped with the site that exists (anything
 * else would show a broken picture). Refused too: a URL into another memorial's folder, whose
 * files would be removed when this one is deleted, and outside addresses, which our
 * Content-Security-Policy blocks anyway.
 */
export async function isUsablePortraitUrl(memorialId: string, url: string | null): Promise<boolean> {
  if (url === null) return true;
  const key = keyFromUrl(url);
  if (key) {
    if (!key.startsWith(`memorials/${memorialId}/`)) return false;
    const [photos, current] = await Promise.all([
      prisma().memorialMedia.count({ where: { memorialId, mediaUrl: url, mediaType: { startsWith: "image/" } } }),
      prisma().memorial.count({ where: { id: memorialId, profileImageUrl: url } }),
    ]);
    return photos + current > 0;
  }
  return isBundledPicture(url);
}

const BUNDLED_PICTURE = /^\/(?:demo|images)\/(?:[A-Za-z0-9][A-Za-z0-9_-]*\/)*[A-Za-z0-9][A-Za-z0-9._-]*\.(?:svg|png|jpe?g|webp)$/;

/** A picture shipped with the site (public/images, public/demo) that is really there. */
function isBundledPicture(url: string) {
  return BUNDLED_PICTURE.test(url) && !url.includes("..") && existsSync(path.join(process.cwd(), "public", url));
}

/** Whether one of the memorial's photos is also its portrait: then its files stay when the portrait changes. */
async function isGalleryPhoto(memorialId: string, url: string) {
  return (await prisma().memorialMedia.count({ where: { memorialId, mediaUrl: url } })) > 0;
}

/** Removes a portrait's stored files once it is no longer the portrait, unless a gallery photo is the same file. */
export async function deleteReplacedPortrait(memorialId: string, url: string | null) {
  if (url && !(await isGalleryPhoto(memorialId, url))) await deleteStoredMedia([url]);
}
