import { data } from "react-router";
import type { AdminActor } from "~/models/audit.server";
import { PAGE_NUMBER_MESSAGE, parsePageNumber } from "~/utils/paging";
import { cleanSearch } from "~/utils/validation/admin";
import { requireAdmin } from "./auth.server";
import { clientIp } from "./facts.server";
import { redirectWithToast, type ToastInput } from "./toast.server";

// The admin dashboard's request plumbing. Every /admin loader and action calls
// requireAdminActor itself: a layout's check does not cover a child route's action, which React Router
// runs without the layout's loader.

/** The administrator asking, with the address their action is recorded from; visitors sign in, members get 403. */
export async function requireAdminActor(request: Request): Promise<AdminActor> {
  const user = await requireAdmin(request);
  return { id: user.id, email: user.email, isAdmin: true, ip: clientIp(request) };
}

/** A list's ?q= and ?page= (and ?status= where given): a page that is not a page number is a 400. */
export function listQuery(request: Request) {
  const url = new URL(request.url);
  const page = parsePageNumber(url.searchParams.get("page"));
  if (page === null) throw data({ message: PAGE_NUMBER_MESSAGE }, { status: 400 });
  return { search: cleanSearch(url.searchParams.get("q")), page, status: cleanSearch(url.searchParams.get("status")) || null };
}

/** Back to the same tab, search and page, with a toast (POST, then redirect: 303). */
export async function backWithToast(request: Request, toast: ToastInput, to?: string) {
  const url = new URL(request.url);
  const kept = new URLSearchParams();
  for (const key of ["q", "page", "status"]) {
    const value = url.searchParams.get(key);
    if (value) kept.set(key, value);
  }
  const query = kept.toString();
  return redirectWithToast(to ?? `${url.pathname}${query ? `?${query}` : ""}`, toast);
}

/** ?limit= and ?offset= of an admin /api list: whole numbers, limit 1–100 (default 50), offset from 0. */
export function apiWindow(url: URL) {
  const int = (value: string | null, fallback: number) => (value !== null && /^\d{1,7}$/.test(value) ? Number(value) : fallback);
  return { limit: Math.min(Math.max(int(url.searchParams.get("limit"), 50), 1), 100), offset: int(url.searchParams.get("offset"), 0) };
}
