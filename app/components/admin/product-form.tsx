import { getFormProps, getInputProps, getSelectProps, getTextareaProps, type SubmissionResult } from "@conform-to/react";
import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { ErrorList, Field, FormAlert } from "~/components/forms";
import { useSchemaForm } from "~/components/schema-form";
import { ADMIN_CATEGORIES } from "~/utils/shop";
import { describeBytes, MAX_IMAGE_BYTES } from "~/utils/upload-limits";
import { productFormSchema } from "~/utils/validation/admin";

// The product form: name, description, category, price in
// pounds, stock, active, and an optional picture. A plain multipart form; with JavaScript the fields are
// checked as they are sent and a picture over 5MB is refused before it is uploaded.

/** `stockLoaded`: editing, the stock as it is now (a stock left as loaded is not written back, so a sale made meanwhile stands). */
export type ProductDefaults = {
  name: string;
  description: string;
  category: string;
  price: string;
  stockQuantity: string;
  isActive: boolean;
  imageUrl: string | null;
  stockLoaded?: string;
};

const TOO_LARGE = "File too large: Please select an image smaller than 5MB";

export function ProductForm({
  defaults,
  lastResult,
  submitLabel,
}: {
  defaults: ProductDefaults;
  lastResult?: SubmissionResult<string[]> | null;
  submitLabel: string;
}) {
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useSchemaForm(productFormSchema, {
    id: "product",
    lastResult,
    defaultValue: { ...defaults, isActive: defaults.isActive ? "on" : undefined },
  });
  const [imageError, setImageError] = useState<string | null>(null);
  const serverImageErrors = (lastResult?.error as Record<string, string[] | null> | undefined)?.image ?? null;
  const imageErrors = imageError ? [imageError] : serverImageErrors;
  const area = (field: typeof fields.description) => {
    const errorId = field.errors?.length ? `${field.id}-error` : undefined;
    const { key: _key, ...props } = getTextareaProps(field);
    return (
      <div>
        <label htmlFor={field.id} className="block text-sm font-medium text-stone-800">
          Description
        </label>
        <textarea
          {...props}
          rows={4}
          aria-invalid={errorId ? true : undefined}
          aria-describedby={errorId}
          className={`mt-1 block w-full rounded-md border px-3 py-2 text-stone-900 shadow-sm ${errorId ? "border-red-600" : "border-stone-400"}`}
        />
        <ErrorList id={errorId} errors={field.errors} />
      </div>
    );
  };
  const categoryErrorId = fields.category.errors?.length ? `${fields.category.id}-error` : undefined;
  const { key: _categoryKey, ...categoryProps } = getSelectProps(fields.category);
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      {...getFormProps(form)}
      className="max-w-2xl space-y-4"
      onSubmit={(e) => (imageError ? e.preventDefault() : form.onSubmit(e))}
    >
      {form.errors?.length ? <FormAlert title="Product not saved">{form.errors.join(" ")}</FormAlert> : null}
      <Field label="Name" errors={fields.name.errors} inputProps={getInputProps(fields.name, { type: "text" })} />
      {area(fields.description)}
      <div>
        <label htmlFor={fields.category.id} className="block text-sm font-medium text-stone-800">
          Category
        </label>
        <select
          {...categoryProps}
          aria-invalid={categoryErrorId ? true : undefined}
          aria-describedby={categoryErrorId}
          className={`mt-1 block w-full rounded-md border bg-white px-3 py-2 text-stone-900 shadow-sm ${categoryErrorId ? "border-red-600" : "border-stone-400"}`}
        >
          <option value="">Choose a category</option>
          {ADMIN_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
        <ErrorList id={categoryErrorId} errors={fields.category.errors} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Price (£)"
          hint="In pounds, e.g. 24.99"
          errors={fields.price.errors}
          inputProps={{ ...getInputProps(fields.price, { type: "text" }), inputMode: "decimal" }}
        />
        <Field
          label="Stock quantity"
          hint="A whole number, 0 or more"
          errors={fields.stockQuantity.errors}
          inputProps={{ ...getInputProps(fields.stockQuantity, { type: "text" }), inputMode: "numeric" }}
        />
      </div>
      {defaults.stockLoaded !== undefined ? <input type="hidden" name="stockLoaded" value={defaults.stockLoaded} readOnly /> : null}
      <div className="flex items-center gap-2">
        {/* Unticked is a valid answer (inactive): never `required`. */}
        <input {...getInputProps(fields.isActive, { type: "checkbox" })} required={false} key={fields.isActive.key} className="h-4 w-4" />
        <label htmlFor={fields.isActive.id} className="text-sm font-medium text-stone-800">
          Active (shown in the shop)
        </label>
      </div>
      {defaults.imageUrl ? (
        <div className="flex items-center gap-3">
          <img src={defaults.imageUrl} alt="" width={64} height={64} className="h-16 w-16 rounded object-cover ring-1 ring-stone-200" />
          <input id="remove-image" type="checkbox" name="removeImage" className="h-4 w-4" />
          <label htmlFor="remove-image" className="text-sm text-stone-800">
            Remove the current picture
          </label>
        </div>
      ) : null}
      <Field
        label="Picture (optional)"
        hint={`JPEG, PNG, GIF or WebP, up to ${describeBytes(MAX_IMAGE_BYTES)}`}
        errors={imageErrors}
        inputProps={{
          id: "product-image",
          type: "file",
          name: "image",
          accept: "image/*",
          onChange: (event) => {
            const file = event.currentTarget.files?.[0];
            setImageError(file && file.size > MAX_IMAGE_BYTES ? TOO_LARGE : null);
          },
        }}
      />
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? "Saving..." : submitLabel}
      </button>
    </Form>
  );
}
