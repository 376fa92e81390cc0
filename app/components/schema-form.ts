import { useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";
import { CHECK_ON_SUBMIT } from "./forms";

// A Conform form checked by the same zod schema in the browser as in its action (one schema, used
// twice), checked on sending and again as a field is corrected (CHECK_ON_SUBMIT). Kept apart
// from forms.tsx so that pages whose forms use no schema in the browser (the memorial page) ship no zod.

// Conform's own bound for a form's schema: any object in, any object out.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type FormSchema = z.ZodType<Record<string, any>, Record<string, any>>;

type Options<S extends FormSchema> = {
  id?: string;
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue?: Partial<Record<keyof z.input<S> & string, unknown>>;
};

export function useSchemaForm<S extends FormSchema>(schema: S, { id, lastResult, defaultValue }: Options<S> = {}) {
  return useForm<z.input<S>, z.output<S>>({
    id,
    lastResult,
    defaultValue: defaultValue as never,
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    ...CHECK_ON_SUBMIT,
  });
}
