import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { Field } from "./forms";

/** First and last name side by side (registration, the account's profile): the same labels and autocomplete. */
export function NameFields({ firstName, lastName }: { firstName: FieldMetadata<string>; lastName: FieldMetadata<string> }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field label="First name" errors={firstName.errors} inputProps={{ ...getInputProps(firstName, { type: "text" }), autoComplete: "given-name" }} />
      <Field label="Last name" errors={lastName.errors} inputProps={{ ...getInputProps(lastName, { type: "text" }), autoComplete: "family-name" }} />
    </div>
  );
}
