import { Link } from "react-router";
import { COPYRIGHT_YEAR, SITE_NAME, SUPPORT_EMAIL } from "~/utils/site";

// The site-wide footer, rendered by the root layout.
// Column headings are h2 because the footer follows each page's own h1/h2 content; every nav has
// its own label so landmarks stay distinct from the header's "Main".
// Links to screens not built yet are left out until they are (app/utils/screens.ts).
const columns = [
  {
    label: "Platform",
    links: [
      { to: "/market", text: "Explore Memorials" },
      { to: "/memorials", text: "Memorials" },
      { to: "/products", text: "Products" },
      { to: "/news", text: "News" },
    ],
  },
  {
    label: "Support",
    links: [
      { to: "/help", text: "Help Center" },
      { to: "/contact", text: "Contact Us" },
    ],
  },
  {
    label: "Legal",
    links: [
      { to: "/privacy", text: "Privacy Policy" },
      { to: "/terms", text: "Terms of Service" },
    ],
  },
];

// Each link at least 24 px high (WCAG 2.5.8): a line of small text alone is 20 px, which a phone's
// Lighthouse audit counted as too small a target.
const linkClass = "inline-block rounded-sm py-0.5 text-stone-700 hover:text-heather-800 hover:underline";

export function SiteFooter() {
  return (
    <footer className="border-t border-stone-200 bg-stone-50">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <p className="flex items-center gap-2 text-lg font-semibold text-stone-900">
            <span aria-hidden="true" className="inline-block h-3 w-3 rounded-full bg-amber-400 ring-4 ring-amber-100" />
            {SITE_NAME}
          </p>
          <p className="mt-3 max-w-xs text-sm leading-relaxed text-stone-700">Lasting online memorials to honor and remember the people we love.</p>
        </div>
        {columns.map((column) => (
          <nav key={column.label} aria-label={column.label}>
            <h2 className="text-sm font-semibold uppercase tracking-wide text-stone-900">{column.label}</h2>
            <ul className="mt-4 space-y-3 text-sm">
              {column.links.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} className={linkClass}>
                    {link.text}
                  </Link>
                </li>
              ))}
              {column.label === "Support" && (
                <li>
                  <a href={`mailto:${SUPPORT_EMAIL}`} className={linkClass}>
                    {SUPPORT_EMAIL}
                  </a>
                </li>
              )}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-stone-200">
        <p className="mx-auto max-w-6xl px-4 py-6 text-sm text-stone-600">{`© ${COPYRIGHT_YEAR} ${SITE_NAME}. All rights reserved.`}</p>
      </div>
    </footer>
  );
}
