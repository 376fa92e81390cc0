// "Take a memorial away": what the pages and the email say about a memorial's copy.
// Pure values, so the route modules and the models share one wording.

/** The schema name and version written into memorial.json (docs/memorial-export.md). */
export const EXPORT_SCHEMA = "everlight.memorial-export";
export const EXPORT_SCHEMA_VERSION = 1;

/** How long a finished copy can be downloaded (then housekeeping deletes it). */
export const EXPORT_LIFETIME_DAYS = 7;

export const EXPORT_MESSAGES = {
  action: "Download a copy",
  requested: "We are preparing your copy",
  requestedDescription: "This page shows how far it has got. We will also email you a link when it is ready.",
  alreadyRunning: "Your copy is already being prepared",
  title: "Download a copy",
  intro:
    "A copy of this memorial as one ZIP file: a page that opens on any computer without the internet, with the life story, the timeline and the events, every photo and video and the approved tributes, and the same details as data (memorial.json) for other services.",
  none: "You have not asked for a copy of this memorial yet.",
  start: "Prepare a copy",
  again: "Prepare a new copy",
  queued: "Waiting to start…",
  building: "Preparing your copy…",
  progressLabel: "Preparing the copy",
  refresh: "Refresh",
  refreshHint: "This page refreshes itself every few seconds. We will also email you when it is ready, so you can leave it.",
  ready: "Your copy is ready",
  download: "Download the ZIP",
  failed: "We could not prepare your copy",
  failedHint: "Nothing was lost from the memorial. Please try again; if it keeps failing, contact us.",
  missingFiles: (count: number) =>
    `${count === 1 ? "One photo or video" : `${count} photos or videos`} could not be read when the copy was made, so ${count === 1 ? "it is" : "they are"} listed in memorial.json but not included.`,
  memorialGone: "The memorial was deleted before its copy was made.",
  tooLarge: (limit: string) =>
    `This memorial's photos and videos come to more than ${limit}, more than one copy can hold. Please contact us and we will send you everything another way.`,
  rateLimited: "You have asked for several copies today.",
  buildFailed: "Something went wrong while the copy was being made.",
} as const;

/** The most a copy may hold of photos and videos: past it, the copy is refused with a message rather than filling the disk. */
export const EXPORT_MAX_BYTES = 4 * 1024 ** 3;

/** An ASCII file name for the person: "everlight-mary-jones-2026-11-26". */
export function exportBaseName(firstName: string, lastName: string, on: Date) {
  const slug =
    `${firstName} ${lastName}`
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "memorial";
  return `everlight-${slug}-${on.toISOString().slice(0, 10)}`;
}
