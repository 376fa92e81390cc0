// Which screens exist yet (issue 13, item 15): a link in the navigation must never lead to a 404. The
// second half's screens are listed here until each is built; menus, the footer and the pages that point
// at them ask `isBuilt` first, so the entries stay in the code and come back when their screen lands:
// the issue that builds a screen removes its path from this list (and its test of the menus then
// expects the link).
// Every screen is built now (the admin dashboard was the last, issue 19).
export const SCREENS_NOT_BUILT = [] as const;

/** Whether the screen a same-site link points at exists (by its first path segment). */
export function isBuilt(href: string): boolean {
  const path = href.split(/[?#]/)[0];
  const first = `/${path.split("/")[1] ?? ""}`;
  return !(SCREENS_NOT_BUILT as readonly string[]).includes(first);
}

/** Keeps only the links whose screens exist: `links.filter(builtLink)`. */
export function builtLink(link: { to: string }): boolean {
  return isBuilt(link.to);
}
