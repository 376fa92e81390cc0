import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { useState } from "react";
import { PasswordChecklist, PasswordField } from "~/components/forms";
import { PASSWORD_RULES } from "~/utils/validation/account-rules";

const RULE_MESSAGES: readonly string[] = PASSWORD_RULES.map((rule) => rule.message);

type NewPasswordFieldsProps = {
  /** "Password" where the account is new, "New password" where one is replaced; the second field is "Confirm …" of it. */
  label: "Password" | "New password";
  password: FieldMetadata<string>;
  confirmation: FieldMetadata<string>;
};

/**
 * Choosing a password (registering, resetting, changing it): the password with the rules ticked off as
 * it is typed, and the same again to confirm it. Both say autocomplete="new-password", so a password
 * manager offers to generate one and saves it, rather than filling in the old one.
 */
export function NewPasswordFields({ label, password, confirmation }: NewPasswordFieldsProps) {
  const [typed, setTyped] = useState("");
  // The rules it breaks are said in the checklist; anything else (none today) beneath the field.
  const refused = password.errors?.filter((e) => RULE_MESSAGES.includes(e)) ?? [];
  const otherErrors = password.errors?.filter((e) => !RULE_MESSAGES.includes(e));
  return (
    <>
      <PasswordField
        label={label}
        errors={otherErrors}
        invalid={refused.length > 0}
        inputProps={{ ...getInputProps(password, { type: "password" }), autoComplete: "new-password" }}
        onValueChange={setTyped}
        hint={<PasswordChecklist password={typed} refused={refused} />}
      />
      <PasswordField
        label={`Confirm ${label.toLowerCase()}`}
        errors={confirmation.errors}
        inputProps={{ ...getInputProps(confirmation, { type: "password" }), autoComplete: "new-password" }}
      />
    </>
  );
}
