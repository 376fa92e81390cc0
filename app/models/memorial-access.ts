// Who may see a memorial (memorial-core.md §4 "Viewing rules"), as one pure function so that the
// page, the media files, the /api and every list apply the same rule. Used on the server only; the
// database queries in memorial.server.ts express the same rule as a `where` (tested against this).

export type Viewer = { id: string; isAdmin: boolean } | null;
export type AccessSubject = { userId: string; isPublished: boolean; visibility: string };

/** Why a memorial is hidden: which lock panel to show. */
export type LockReason = "draft" | "private" | "friends";

export type AccessDecision = { allowed: true } | { allowed: false; reason: LockReason };

/**
 * - draft → owner only; published public → anyone; published friends → owner or a signed-in friend;
 *   published private → owner only; administrators see everything.
 * `isFriend`: whether the viewer has a friendship row with the owner.
 */
export function decideAccess(memorial: AccessSubject, viewer: Viewer, isFriend: boolean): AccessDecision {
  if (viewer && (viewer.isAdmin || viewer.id === memorial.userId)) return { allowed: true };
  if (!memorial.isPublished) return { allowed: false, reason: "draft" };
  if (memorial.visibility === "public") return { allowed: true };
  if (memorial.visibility === "friends") return viewer && isFriend ? { allowed: true } : { allowed: false, reason: "friends" };
  return { allowed: false, reason: "private" };
}

// What an administrator may do with a member's memorial, decided once (issue 13 §7, README), for the
// pages and the /api alike: open any memorial, drafts and private ones included, as moderators must
// (commerce-and-accounts.md §6: admins "can see all memorials"); delete a whole memorial that breaks the
// terms (deleteMemorial); never edit it or remove single photos and videos, which are the family's
// (updateOwnMemorial, deleteMediaItem: owner only); approve or reject tributes only on memorials an
// administrator created (canModerate, tribute.server.ts). Families are told so (VISIBILITY_HINTS).

export function isOwner(memorial: { userId: string }, viewer: Viewer) {
  return !!viewer && viewer.id === memorial.userId;
}
