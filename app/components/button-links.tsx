import { Link } from "react-router";

export type ButtonLink = { to: string; label: string; look?: "ghost" };

/**
 * The ways on from a page, as a row of buttons that wraps: the first, the way most visitors take, is
 * the primary button and the others are secondary; a `ghost` one (the way home) is plain.
 */
export function ButtonLinks({ links, className }: { links: ButtonLink[]; className?: string }) {
  return (
    <div className={className ? `${className} flex flex-wrap gap-3` : "flex flex-wrap gap-3"}>
      {links.map((link, i) => (
        <Link key={link.to} to={link.to} className={link.look === "ghost" ? "btn-ghost" : i === 0 ? "btn-primary" : "btn-secondary"}>
          {link.label}
        </Link>
      ))}
    </div>
  );
}
