import { Link } from "react-router";

/** A plan's payment form ends the same way at every step: the button that goes on, and Cancel back to the plans. */
export function PayOrCancel({
  label,
  buttonClassName = "btn-primary",
  className = "flex flex-wrap gap-3",
}: {
  label: string;
  buttonClassName?: string;
  className?: string;
}) {
  return (
    <div className={className}>
      <button type="submit" className={buttonClassName}>
        {label}
      </button>
      <Link to="/subscription" className="btn-secondary">
        Cancel
      </Link>
    </div>
  );
}
