// The hand-written forms (a memorial's events, its timeline) read a form the same way: each field as text,
// so that what was typed can be sent back beside its errors, and each field's errors once, in order.

/** What reading such a form gives: the input, or each field's errors; what was typed either way. */
export type ParsedForm<I, V, E> = { ok: true; input: I; values: V } | { ok: false; errors: E; values: V };

/** The named fields as text: a missing field or a file reads as "", and a value is cut to `max` characters. */
export function readFormFields<F extends string>(form: FormData, fields: readonly F[], max: number): Record<F, string> {
  // A file or a huge value is not kept to be sent back.
  return Object.fromEntries(
    fields.map((k) => {
      const v = form.get(k);
      return [k, typeof v === "string" ? v.slice(0, max) : ""];
    }),
  ) as Record<F, string>;
}

/** A schema's issues as each field's messages, a message once per field. */
export function fieldErrors<F extends string>(issues: readonly { path: PropertyKey[]; message: string }[]): Partial<Record<F, string[]>> {
  const errors: Partial<Record<F, string[]>> = {};
  for (const issue of issues) {
    const key = issue.path[0] as F;
    if (!errors[key]?.includes(issue.message)) errors[key] = [...(errors[key] ?? []), issue.message];
  }
  return errors;
}
