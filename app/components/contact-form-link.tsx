import { Link } from "react-router";
import { isBuilt } from "~/utils/screens";
import { SUPPORT_EMAIL } from "~/utils/site";

/**
 * " or use our contact form" after a sentence giving the support address, once the contact screen
 * exists; until then the address stands alone (issue 13: no link leads to a 404; app/utils/screens.ts).
 */
export function OrContactForm({ className }: { className: string }) {
  if (!isBuilt("/contact")) return null;
  return (
    <>
      {" "}
      or use our{" "}
      <Link to="/contact" className={className}>
        contact form
      </Link>
    </>
  );
}

/** A link to support: the contact form once it exists, else the support address (never a 404). */
export function SupportLink({ children, className = "link" }: { children: React.ReactNode; className?: string }) {
  return isBuilt("/contact") ? (
    <Link to="/contact" className={className}>
      {children}
    </Link>
  ) : (
    <a href={`mailto:${SUPPORT_EMAIL}`} className={className}>
      {children}
    </a>
  );
}
