import { getFormProps, getInputProps, getSelectProps, type SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "react-router";
import { Field, useHydrated } from "~/components/forms";
import { useSchemaForm } from "~/components/schema-form";
import { COUNTRIES } from "~/utils/countries";
import { shippingSchema, type ShippingDetails } from "~/utils/validation/shop";

// Checkout step 1: every rule and message of the
// shipping form, checked in the browser with JavaScript and always on the server; a refused form comes back with
// what was typed and each message next to its field. With JavaScript the form says so (`js`), and the
// payment is taken on our own page (Stripe's Payment Element); without it, on Stripe's hosted page.

export function ShippingForm({
  lastResult,
  defaultValue,
}: {
  lastResult: SubmissionResult<string[]> | null | undefined;
  defaultValue: Partial<ShippingDetails>;
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formData?.get("intent") === "shipping";
  const [form, fields] = useSchemaForm(shippingSchema, { id: "shipping", lastResult, defaultValue });
  const text = (field: (typeof fields)[keyof typeof fields], autoComplete: string, type: "text" | "email" | "tel" = "text") => ({
    ...getInputProps(field, { type }),
    autoComplete,
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4" aria-labelledby="shipping-heading">
      <input type="hidden" name="intent" value="shipping" />
      {hydrated ? <input type="hidden" name="js" value="1" /> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="First name" errors={fields.firstName.errors} inputProps={text(fields.firstName, "given-name")} />
        <Field label="Last name" errors={fields.lastName.errors} inputProps={text(fields.lastName, "family-name")} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Email" errors={fields.email.errors} inputProps={text(fields.email, "email", "email")} />
        <Field label="Phone" errors={fields.phone.errors} inputProps={{ ...text(fields.phone, "tel", "tel"), inputMode: "tel" }} />
      </div>
      <Field label="Address" errors={fields.address.errors} inputProps={text(fields.address, "street-address")} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="City" errors={fields.city.errors} inputProps={text(fields.city, "address-level2")} />
        <Field label="State / County" errors={fields.state.errors} inputProps={text(fields.state, "address-level1")} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="ZIP / Postcode" errors={fields.zipCode.errors} inputProps={text(fields.zipCode, "postal-code")} />
        <CountrySelect field={fields.country} />
      </div>
      <button type="submit" className="btn-primary w-full sm:w-auto" disabled={pending}>
        {pending ? "Preparing payment..." : "Continue to Payment"}
      </button>
    </Form>
  );
}

type CountryField = Parameters<typeof getSelectProps>[0];

function CountrySelect({ field }: { field: CountryField }) {
  const errorId = field.errors?.length ? `${field.id}-error` : undefined;
  const { key: _key, ...props } = getSelectProps(field);
  return (
    <div>
      <label htmlFor={field.id} className="block text-sm font-medium text-stone-800">
        Country
      </label>
      <select
        {...props}
        autoComplete="country"
        aria-invalid={errorId ? true : undefined}
        aria-describedby={errorId}
        className={`mt-1 block w-full rounded-md border bg-white px-3 py-2 text-stone-900 shadow-sm ${errorId ? "border-red-600" : "border-stone-400"}`}
      >
        <option value="">Choose a country</option>
        {COUNTRIES.map(([code, name]) => (
          <option key={code} value={code}>
            {name}
          </option>
        ))}
      </select>
      {errorId ? (
        <ul id={errorId} className="mt-1 space-y-0.5 text-sm text-red-700">
          {field.errors!.map((e: string) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
