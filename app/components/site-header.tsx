import { Link, NavLink } from "react-router";
import { SITE_NAME } from "~/utils/site";

// The sticky navigation bar (memorial-core.md §2 "Navigation bar"). Signed-out state for now; the
// accounts issue adds the signed-in links, basket and avatar menu. The mobile menu is a <details>
// element so it opens and closes without JavaScript.
const publicLinks = [
  { to: "/", label: "Home" },
  { to: "/news", label: "News" },
  { to: "/memorials", label: "Memorials" },
  { to: "/products", label: "Products" },
] as const;

function navLinkClass({ isActive }: { isActive: boolean }) {
  return `rounded-md px-3 py-2 text-sm font-medium ${
    isActive ? "bg-indigo-50 text-indigo-800" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900"
  }`;
}

export function SiteHeader() {
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
        <Link to="/" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
          <span aria-hidden="true" className="inline-block h-3 w-3 rounded-full bg-amber-400 ring-4 ring-amber-100" />
          {SITE_NAME}
        </Link>
        <ul className="hidden items-center gap-1 md:flex">
          {publicLinks.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} end={link.to === "/"} className={navLinkClass}>
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <div className="hidden items-center gap-2 md:flex">
          <Link to="/login" className="btn-ghost">
            Login
          </Link>
          <Link to="/register" className="btn-primary">
            Sign Up
          </Link>
        </div>
        <details className="group relative md:hidden">
          <summary className="btn-ghost cursor-pointer list-none [&::-webkit-details-marker]:hidden">
            <span className="sr-only">Menu</span>
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2">
              <path d="M4 6h16M4 12h16M4 18h16" />
            </svg>
          </summary>
          <div className="absolute right-0 mt-2 w-56 rounded-md border border-slate-200 bg-white p-2 shadow-lg">
            <ul className="flex flex-col">
              {publicLinks.map((link) => (
                <li key={link.to}>
                  <NavLink to={link.to} end={link.to === "/"} className={(s) => `block ${navLinkClass(s)}`}>
                    {link.label}
                  </NavLink>
                </li>
              ))}
              <li className="mt-2 border-t border-slate-200 pt-2">
                <Link to="/login" className="block rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100">
                  Login
                </Link>
              </li>
              <li>
                <Link to="/register" className="block rounded-md px-3 py-2 text-sm font-medium text-indigo-800 hover:bg-indigo-50">
                  Sign Up
                </Link>
              </li>
            </ul>
          </div>
        </details>
      </nav>
    </header>
  );
}
