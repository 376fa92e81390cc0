import { useEffect, useRef } from "react";
import { Form, Link, NavLink, useLocation } from "react-router";
import { SITE_NAME } from "~/utils/site";

// The sticky navigation bar. Both menus are <details>
// disclosures, so they open and close without JavaScript; with it, Escape and a click elsewhere close
// them too. Log out is a POST form, never a link.

export type HeaderUser = { id: string; firstName: string; lastName: string; profileImageUrl: string | null; isAdmin: boolean };

type NavItem = { to: string; label: string; signedIn?: boolean };
const mainLinks: NavItem[] = [
  { to: "/", label: "Home" },
  { to: "/news", label: "News" },
  { to: "/my-memorials", label: "My Memorials", signedIn: true },
  { to: "/vault", label: "Vault", signedIn: true },
  { to: "/memorials", label: "Memorials" },
  { to: "/products", label: "Products" },
];

const accountLinks = [
  { to: "/account", label: "My Account", mobile: true },
  // Friends is in the phone menu too: without it a member on a phone could not reach it at all (README).
  { to: "/friends", label: "Friends", mobile: true },
  { to: "/orders", label: "My Orders", mobile: true },
  { to: "/subscription", label: "Subscription", mobile: false },
  { to: "/contact", label: "Contact", mobile: true },
];

// For a visitor: a button each in the bar, and the same two at the foot of the phone menu.
const visitorLinks = [
  { to: "/login", label: "Login", button: "btn-ghost", menuItem: "text-stone-700 hover:bg-stone-100" },
  { to: "/register", label: "Sign Up", button: "btn-primary", menuItem: "text-heather-800 hover:bg-heather-50" },
];

function navLinkClass({ isActive }: { isActive: boolean }) {
  return `block rounded-md px-3 py-2 text-sm font-medium ${
    isActive ? "bg-heather-50 text-heather-800" : "text-stone-700 hover:bg-stone-100 hover:text-stone-900"
  }`;
}

/** The basket badge caps at 99+. */
export function basketBadge(count: number) {
  return count > 99 ? "99+" : String(count);
}

export function SiteHeader({ user, cartCount }: { user: HeaderUser | null; cartCount: number }) {
  const location = useLocation();
  useMenusCloseOnNavigate(location.key);
  const links = mainLinks.filter((l) => !l.signedIn || user);
  return (
    <header className="sticky top-0 z-40 border-b border-stone-200 bg-white/95 backdrop-blur">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-3 px-4">
        <Link to="/" className="flex items-center gap-2 text-lg font-semibold text-stone-900">
          <span aria-hidden="true" className="inline-block h-3 w-3 rounded-full bg-amber-400 ring-4 ring-amber-100" />
          {SITE_NAME}
        </Link>
        <ul className="hidden items-center gap-1 lg:flex">
          <MainLinks links={links} />
        </ul>
        <div className="flex items-center gap-2">
          {user ? (
            <>
              <BasketButton cartCount={cartCount} />
              <Link to="/memorials/create" className="btn-primary hidden sm:inline-flex">
                Create Memorial
              </Link>
              <details className="relative hidden lg:block" data-menu>
                <summary
                  className="flex cursor-pointer list-none items-center gap-2 rounded-full p-1 hover:bg-stone-100 [&::-webkit-details-marker]:hidden"
                  aria-label={`Account menu for ${user.firstName} ${user.lastName}`}
                >
                  <Avatar user={user} />
                </summary>
                <div className="absolute right-0 mt-2 w-56 rounded-md border border-stone-200 bg-white p-2 shadow-lg">
                  <p className="truncate px-3 py-2 text-sm font-semibold text-stone-900">
                    {user.firstName} {user.lastName}
                  </p>
                  <ul className="border-t border-stone-200 pt-1">
                    <AccountLinks user={user} links={accountLinks} />
                    <li className="mt-1 border-t border-stone-200 pt-1">
                      <LogoutButton />
                    </li>
                  </ul>
                </div>
              </details>
            </>
          ) : (
            <div className="hidden items-center gap-2 lg:flex">
              {visitorLinks.map((l) => (
                <Link key={l.to} to={l.to} className={l.button}>
                  {l.label}
                </Link>
              ))}
            </div>
          )}
          <MobileMenu user={user} links={links} />
        </div>
      </nav>
    </header>
  );
}

function MobileMenu({ user, links }: { user: HeaderUser | null; links: NavItem[] }) {
  return (
    <details className="relative lg:hidden" data-menu>
      <summary className="btn-ghost cursor-pointer list-none [&::-webkit-details-marker]:hidden" aria-label="Menu">
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M4 6h16M4 12h16M4 18h16" />
        </svg>
      </summary>
      <div className="absolute right-0 mt-2 w-60 rounded-md border border-stone-200 bg-white p-2 shadow-lg">
        <ul className="flex flex-col">
          <MainLinks links={links} />
          {user ? (
            <>
              <li>
                <NavLink to="/memorials/create" className={navLinkClass}>
                  Create Memorial
                </NavLink>
              </li>
              <li className="mt-2 border-t border-stone-200 pt-2">
                <ul>
                  <AccountLinks user={user} links={accountLinks.filter((l) => l.mobile)} />
                  <li>
                    <LogoutButton />
                  </li>
                </ul>
              </li>
            </>
          ) : (
            visitorLinks.map((l, i) => (
              <li key={l.to} className={i === 0 ? "mt-2 border-t border-stone-200 pt-2" : undefined}>
                <Link to={l.to} className={`block rounded-md px-3 py-2 text-sm font-medium ${l.menuItem}`}>
                  {l.label}
                </Link>
              </li>
            ))
          )}
        </ul>
      </div>
    </details>
  );
}

/** The basket with its count (the badge caps at 99+). */
function BasketButton({ cartCount }: { cartCount: number }) {
  return (
    <Link to="/basket" className="btn-ghost relative" aria-label={`Basket, ${cartCount} item${cartCount === 1 ? "" : "s"}`}>
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
        <path d="M3 3h2l2.4 12.2a2 2 0 0 0 2 1.6h7.7a2 2 0 0 0 2-1.6L21 7H6" />
        <circle cx="10" cy="20" r="1.5" />
        <circle cx="17" cy="20" r="1.5" />
      </svg>
      {cartCount > 0 ? (
        <span
          aria-hidden="true"
          data-testid="basket-badge"
          className="absolute -right-1 -top-1 min-w-5 rounded-full bg-heather-700 px-1 text-center text-xs font-bold leading-5 text-white"
        >
          {basketBadge(cartCount)}
        </span>
      ) : null}
    </Link>
  );
}

/** The site's main links, in the bar and in the phone menu alike. */
function MainLinks({ links }: { links: NavItem[] }) {
  return (
    <>
      {links.map((link) => (
        <li key={link.to}>
          <NavLink to={link.to} end={link.to === "/"} className={navLinkClass}>
            {link.label}
          </NavLink>
        </li>
      ))}
    </>
  );
}

/** The avatar menu's links (and the mobile menu's share of them), with Admin for administrators. */
function AccountLinks({ user, links }: { user: HeaderUser; links: { to: string; label: string }[] }) {
  return (
    <>
      {links.map((l) => (
        <li key={l.to}>
          <NavLink to={l.to} className={navLinkClass}>
            {l.label}
          </NavLink>
        </li>
      ))}
      {user.isAdmin ? (
        <li>
          <NavLink to="/admin" className={navLinkClass}>
            Admin
          </NavLink>
        </li>
      ) : null}
    </>
  );
}

function LogoutButton() {
  return (
    <Form method="post" action="/logout">
      <button type="submit" className="block w-full rounded-md px-3 py-2 text-left text-sm font-medium text-stone-700 hover:bg-stone-100 hover:text-stone-900">
        Log out
      </button>
    </Form>
  );
}

function Avatar({ user }: { user: HeaderUser }) {
  if (user.profileImageUrl) {
    return <img src={user.profileImageUrl} alt="" width={32} height={32} className="with-fallback h-8 w-8 rounded-full object-cover" />;
  }
  return (
    <span aria-hidden="true" className="flex h-8 w-8 items-center justify-center rounded-full bg-heather-100 text-sm font-bold text-heather-800">
      {user.firstName.charAt(0).toUpperCase()}
      {user.lastName.charAt(0).toUpperCase()}
    </span>
  );
}

/** With JavaScript: close open menus on navigation, on Escape (focus back to the toggle) and on a click outside. */
function useMenusCloseOnNavigate(locationKey: string) {
  // Only when the location changes, not as the page hydrates: a public page's scripts come with the visitor's
  // first tap (app/request/hydrate-on-use.server.ts), often the one that opened the menu, which stays open.
  const shownKey = useRef(locationKey);
  useEffect(() => {
    if (shownKey.current === locationKey) return;
    shownKey.current = locationKey;
    document.querySelectorAll<HTMLDetailsElement>("details[data-menu][open]").forEach((d) => (d.open = false));
  }, [locationKey]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      document.querySelectorAll<HTMLDetailsElement>("details[data-menu][open]").forEach((d) => {
        d.open = false;
        d.querySelector("summary")?.focus();
      });
    };
    const onClick = (event: MouseEvent) => {
      document.querySelectorAll<HTMLDetailsElement>("details[data-menu][open]").forEach((d) => {
        if (!d.contains(event.target as Node)) d.open = false;
      });
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("click", onClick);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("click", onClick);
    };
  }, []);
}
