import { Link } from "react-router";
import { useEffect, useId, useState, type InputHTMLAttributes } from "react";
import { PASSWORD_RULES } from "~/utils/validation/account-rules";

// Form fields that carry their own label and tie their errors to the input (aria-invalid,
// aria-describedby), so every form is accessible by construction and works without JavaScript.

/**
 * When every form checks its fields (Conform's useForm options): on sending, then again as a field with
 * an error is corrected. Not when a field is left: an error appearing then pushes the button below it
 * down under the finger that is about to tap it, and that first tap is lost.
 */
export const CHECK_ON_SUBMIT = { shouldValidate: "onSubmit", shouldRevalidate: "onInput" } as const;

export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  if (!errors?.length) return null;
  return (
    <ul id={id} className="mt-1 space-y-0.5 text-sm text-red-700">
      {errors.map((e) => (
        <li key={e}>{e}</li>
      ))}
    </ul>
  );
}

type FieldProps = {
  label: React.ReactNode;
  errors?: string[] | null;
  hint?: React.ReactNode;
  inputProps: InputHTMLAttributes<HTMLInputElement> & { id?: string; key?: string | null };
  className?: string;
};

/** A field's ids: its own (or a generated one), and those of its error list and hint when it has them. */
function useFieldIds({ errors, hint, inputProps }: Pick<FieldProps, "errors" | "hint" | "inputProps">) {
  const fallbackId = useId();
  const { key: _key, ...props } = inputProps;
  const id = props.id ?? fallbackId;
  const errorId = errors?.length ? `${id}-error` : undefined;
  const hintId = hint ? `${id}-hint` : undefined;
  return { props, id, errorId, hintId };
}

export function Field({ label, errors, hint, inputProps, className }: FieldProps) {
  const { props, id, errorId, hintId } = useFieldIds({ errors, hint, inputProps });
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-stone-800">
        {label}
      </label>
      <input
        {...props}
        id={id}
        aria-invalid={errorId ? true : undefined}
        aria-describedby={[errorId, hintId].filter(Boolean).join(" ") || undefined}
        className={`mt-1 block w-full rounded-md border px-3 py-2 text-stone-900 shadow-sm disabled:bg-stone-100 disabled:text-stone-600 ${
          errorId ? "border-red-600" : "border-stone-400"
        }`}
      />
      {hint ? (
        <p id={hintId} className="mt-1 text-sm text-stone-600">
          {hint}
        </p>
      ) : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

/** A password field whose Show/Hide toggle appears only with JavaScript (without, a plain password field). */
export function PasswordField({
  label,
  errors,
  inputProps,
  hint,
  onValueChange,
  className,
  invalid: invalidByHint = false,
}: FieldProps & {
  onValueChange?: (v: string) => void;
  /** The field is refused by what its hint says (the password rules), not by an error of its own. */
  invalid?: boolean;
}) {
  const hydrated = useHydrated();
  const [visible, setVisible] = useState(false);
  const { props, id, errorId, hintId } = useFieldIds({ errors, hint, inputProps });
  const invalid = Boolean(errorId) || invalidByHint;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-stone-800">
        {label}
      </label>
      <div className="relative mt-1">
        <input
          {...props}
          id={id}
          type={visible ? "text" : "password"}
          onChange={(e) => {
            props.onChange?.(e);
            onValueChange?.(e.currentTarget.value);
          }}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={[errorId, hintId].filter(Boolean).join(" ") || undefined}
          className={`block w-full rounded-md border px-3 py-2 pr-16 text-stone-900 shadow-sm ${invalid ? "border-red-600" : "border-stone-400"}`}
        />
        {hydrated ? (
          <button
            type="button"
            onClick={() => setVisible((v) => !v)}
            aria-pressed={visible}
            aria-controls={id}
            className="absolute inset-y-1 right-1 rounded px-2 text-sm font-medium text-heather-800 hover:bg-heather-50"
          >
            {visible ? "Hide" : "Show"}
            <span className="sr-only"> password</span>
          </button>
        ) : null}
      </div>
      {hint ? (
        <div id={hintId} className="mt-1 text-sm text-stone-600">
          {hint}
        </div>
      ) : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

/** The password rules; with JavaScript each is ticked live as the password meets it. */
/**
 * The password rules, ticked off as the password is typed. A rule the form refused is said once, here, in
 * its refusal's words and in red, rather than as the rule and again as an error beneath it.
 */
export function PasswordChecklist({ password, refused = [] }: { password: string; refused?: readonly string[] }) {
  const hydrated = useHydrated();
  // Introduced by text rather than named with aria-label: a name would stand in for the list's items in the
  // field's description, and a refused rule would no longer be read out with the field.
  return (
    <>
      <p className="sr-only">Password requirements:</p>
      <ul className="mt-2 space-y-0.5 text-sm">
        {PASSWORD_RULES.map((rule) => {
          const met = hydrated && rule.test(password);
          const failed = !met && refused.includes(rule.message);
          return (
            <li key={rule.label} className={met ? "text-emerald-800" : failed ? "text-red-700" : "text-stone-700"} data-met={met}>
              <span aria-hidden="true">{met ? "✓ " : failed ? "✗ " : "• "}</span>
              {failed ? rule.message : rule.label}
              {hydrated && !failed ? <span className="sr-only">{met ? " (met)" : " (not yet met)"}</span> : null}
            </li>
          );
        })}
      </ul>
    </>
  );
}

export function FormAlert({ title, children, id }: { title: string; children?: React.ReactNode; id?: string }) {
  return (
    <div id={id} role="alert" className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-red-900">
      <p className="font-semibold">{title}</p>
      {children ? <div className="text-sm">{children}</div> : null}
    </div>
  );
}

export function AuthCard({ title, subtitle, children }: { title: string; subtitle: string; children: React.ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-12">
      <div className="space-y-6 rounded-xl border border-stone-200 bg-white p-6 shadow-sm sm:p-8">
        <div className="text-center">
          <h1 className="text-2xl font-bold text-stone-900">{title}</h1>
          <p className="mt-1 text-stone-700">{subtitle}</p>
        </div>
        {children}
      </div>
    </div>
  );
}

/** The quiet way out, centred under a card's form: back to sign in, home, or to the memorial. */
export function CardFootLink({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <p className="text-center text-sm">
      <Link to={to} className="link">
        {children}
      </Link>
    </p>
  );
}

/** The way back from the password pages to the sign-in form. */
export function BackToSignIn() {
  return <CardFootLink to="/login">Back to sign in</CardFootLink>;
}

/** Email fields are forced to lower case as typed (the server lower-cases too). */
export function lowerCaseAsTyped(event: React.FormEvent<HTMLInputElement>) {
  const input = event.currentTarget;
  const lower = input.value.toLowerCase();
  if (lower !== input.value) input.value = lower;
}

/** A checkbox with its label beside it (follow, the family's shop switch). */
export function Tick({ name, id, label, defaultChecked }: { name: string; id: string; label: string; defaultChecked?: boolean }) {
  return (
    <div className="flex items-start gap-2">
      <input id={id} name={name} type="checkbox" defaultChecked={defaultChecked} className="mt-1 h-4 w-4 shrink-0 accent-heather-700" />
      <label htmlFor={id} className="text-sm text-stone-900">
        {label}
      </label>
    </div>
  );
}
