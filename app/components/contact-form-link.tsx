import { Link } from "react-router";

/** " or use our contact form" after a sentence giving the support address. */
export function OrContactForm({ className }: { className: string }) {
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

/** A link to support: the contact form. */
export function SupportLink({ children, className = "link" }: { children: React.ReactNode; className?: string }) {
  return (
    <Link to="/contact" className={className}>
      {children}
    </Link>
  );
}
