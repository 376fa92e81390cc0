// The login-required routes of both specs' route tables (memorial-core.md §2, commerce-and-accounts.md
// §2). Each screen guards itself with requireUser/requireAdmin; this list also guards the paths whose
// screens are not built yet (app/routes/$.tsx), so a visitor is always sent to sign in first.
export const LOGIN_REQUIRED_PATHS = [
  "/my-memorials",
  "/memorials/create",
  "/memorials/:id/edit",
  "/basket",
  "/checkout",
  "/order-success",
  "/order-confirmation",
  "/account",
  "/orders",
  "/admin",
  "/vault",
  "/subscription",
  "/friends",
] as const;

export const ADMIN_PATHS = ["/admin"] as const;

function matches(pattern: string, pathname: string) {
  const a = pattern.split("/").filter(Boolean);
  const b = pathname.replace(/\/+$/, "").split("/").filter(Boolean);
  // A pattern also covers what lies beneath it (/account/security under /account).
  if (b.length < a.length) return false;
  return a.every((segment, i) => segment.startsWith(":") || segment === b[i]);
}

export function requiresLogin(pathname: string) {
  return LOGIN_REQUIRED_PATHS.some((p) => matches(p, pathname));
}

export function requiresAdmin(pathname: string) {
  return ADMIN_PATHS.some((p) => matches(p, pathname));
}
