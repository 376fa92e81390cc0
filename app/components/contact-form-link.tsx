import { Link } from "react-router";
import { isBuilt } from "~/utils/screens";

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
