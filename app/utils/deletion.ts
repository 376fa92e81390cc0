// How long a deleted memorial or account is kept before it goes for good, for the
// pages that say so and the purge that does it (app/models/memorials/deletion.server.ts).

export const RECOVERY_DAYS = 30;
/** The owner is told this many days before a deletion becomes final. */
export const PURGE_NOTICE_DAYS = 3;
const DAY_MS = 86_400_000;

/** When something deleted at this moment goes for good. */
export function purgeDateOf(deletedAt: Date): Date {
  return new Date(deletedAt.getTime() + RECOVERY_DAYS * DAY_MS);
}

/** What the restore buttons say happened (My Memorials, the dashboard). */
export const RESTORE_MESSAGES = {
  restored: (title: string) => `“${title}” is back, with its photos, videos and tributes, visible to the same people as before.`,
  notFound: "That memorial could not be restored: it has been removed for good, or restored already.",
  limit: (limit: number) =>
    `You have reached the free plan's limit of ${limit} memorials. Choose a plan, or delete another memorial, to restore this one. It is kept until the date shown.`,
  withAccount: "This memorial went with its owner's account: restore the account to bring it back.",
  moderated:
    "Our moderators removed this memorial because it broke the site's rules, so it cannot be restored from here. If you think this is a mistake, write to us through the contact page before the date shown and we will look at it again.",
} as const;
