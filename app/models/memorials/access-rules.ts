// Who may see a memorial, as one pure function so that the
// page, the media files, the /api and every list apply the same rule. Used on the server only; the
// database queries in access.server.ts express the same rule as a `where` (tested against this).

export type Viewer = { id: string; isAdmin: boolean } | null;
export type AccessSubject = { userId: string; isPublished: boolean; visibility: string };

/** Why a memorial is hidden: which lock panel to show. */
export type LockReason = "draft" | "private" | "friends";

export type AccessDecision = { allowed: true } | { allowed: false; reason: LockReason };

/** Public and unlisted memorials, once published, are anyone's to read who has the address. */
function readableByAddress(visibility: string) {
  return visibility === "public" || visibility === "unlisted";
}

/**
 * - draft → owner only; published public → anyone; published unlisted → anyone who has its address (it is
 *   in no list: visibleWhere and the public lists leave it out); published friends → owner or a signed-in
 *   friend; published private → owner only; administrators see everything.
 * `isFriend`: whether the viewer has a friendship row with the owner. `coRole`: the viewer's co-manager
 * role on this memorial (memorial_managers), which lets them see it in any state.
 */
export function decideAccess(memorial: AccessSubject, viewer: Viewer, isFriend: boolean, coRole: CoManagerRole | null = null): AccessDecision {
  if (viewer && (viewer.isAdmin || viewer.id === memorial.userId)) return { allowed: true };
  // Co-managers see the memorial in every state, drafts and private ones included.
  if (viewer && coRole) return { allowed: true };
  if (!memorial.isPublished) return { allowed: false, reason: "draft" };
  if (readableByAddress(memorial.visibility)) return { allowed: true };
  if (memorial.visibility === "friends") return viewer && isFriend ? { allowed: true } : { allowed: false, reason: "friends" };
  return { allowed: false, reason: "private" };
}

// What an administrator may do with a member's memorial, decided once (README), for the
// pages and the /api alike: open any memorial, drafts and private ones included, as moderators must
// (administrators can see all memorials); delete a whole memorial that breaks the
// terms (deleteMemorial); never edit it or remove single photos and videos, which are the family's
// (updateOwnMemorial, deleteMediaItem: owner only); approve or reject tributes only on memorials an
// administrator created (canModerate, tributes/tributes.server.ts). Families are told so (VISIBILITY_HINTS).

export function isOwner(memorial: { userId: string }, viewer: Viewer) {
  return !!viewer && viewer.id === memorial.userId;
}

// Co-managers (docs/decisions/020-co-managers.md). What each role on a memorial may do,
// decided here once for the pages, the /api and the models:
//                         owner  manager  editor  administrator
//   view in any state       ✓       ✓        ✓         ✓
//   edit content, media     ✓       ✓        ✓         –
//   moderate tributes       ✓       ✓        ✓    (canModerate)
//   visibility, publish     ✓       ✓        –         –
//   invite, remove, roles   ✓       ✓        –         –
//   delete, restore, copy   ✓       –        –   delete only
export const CO_MANAGER_ROLES = ["editor", "manager"] as const;
export type CoManagerRole = (typeof CO_MANAGER_ROLES)[number];
/** The viewer's standing on one memorial. */
export type MemorialRole = "owner" | CoManagerRole | "none";

export function isCoManagerRole(value: unknown): value is CoManagerRole {
  return value === "editor" || value === "manager";
}

/** The role of a viewer given the memorial's owner and the viewer's co-manager row, if any. */
export function roleOf(memorial: { userId: string }, viewer: Viewer, coRole: string | null | undefined): MemorialRole {
  if (isOwner(memorial, viewer)) return "owner";
  return viewer && isCoManagerRole(coRole) ? coRole : "none";
}

/** Edit the names, dates, biography, portrait, photos and videos. */
export function canEditContent(role: MemorialRole) {
  return role !== "none";
}

/** Approve and reject tributes (an administrator's own rule is canModerate in tributes/tributes.server.ts). */
export function canModerateAs(role: MemorialRole) {
  return role !== "none";
}

/** Change who may see the memorial and whether it is published. */
export function canChangeVisibility(role: MemorialRole) {
  return role === "owner" || role === "manager";
}

/** Invite people, remove them, change their roles, revoke invitations. */
export function canManagePeople(role: MemorialRole) {
  return role === "owner" || role === "manager";
}

/** Delete, restore or take a copy of the memorial, name a successor: the owner alone. */
export function canDeleteOrExport(role: MemorialRole) {
  return role === "owner";
}

// Anniversaries in the calendar (docs/decisions/022-anniversary-calendar.md). A calendar
// that subscribes to a feed signs no one in, so the feed is judged by its link alone: a published public
// memorial's feed is anyone's, as its page is; a published friends-only or private memorial's only through
// its private link, which the owner and co-managers see and choose to share; a draft's nobody's. An unlisted
// memorial's feed is like its page: anyone's who has the address (which carries the same id as the page's).
export type CalendarAccess = "public" | "private-link";

/** Who may read a memorial's calendar: by its public address, by its private link, or nobody (null). */
export function calendarFeedAccess(memorial: Omit<AccessSubject, "userId">, hasValidKey: boolean): CalendarAccess | null {
  if (!memorial.isPublished) return null;
  if (readableByAddress(memorial.visibility)) return "public";
  return hasValidKey ? "private-link" : null;
}

/** Which calendar links the memorial page shows this viewer: the public ones, the private link, or none. */
export function calendarLinksShown(memorial: Omit<AccessSubject, "userId">, role: MemorialRole): CalendarAccess | null {
  if (!memorial.isPublished) return null;
  if (readableByAddress(memorial.visibility)) return "public";
  return role === "none" ? null : "private-link";
}
