import { parseForm } from "~/request/form.server";
import { data } from "react-router";
import { createProduct, storeProductImage, updateProduct } from "~/models/commerce/products.server";
import { backWithToast, requireAdminActor } from "~/request/admin.server";
import { readImageUploadForm } from "~/request/multipart.server";
import { ImageRejectedError } from "~/services/images.server";
import { ADMIN_MESSAGES, productFormSchema } from "~/utils/validation/admin";

// The product form's action, for New product and Edit product: the fields are checked by the same
// schema as in the browser, the picture
// (optional) must be an image of at most 5MB and is stored resized like memorial photos. Bad input comes
// back to the form with each message under its field and everything typed kept.

export async function productFormAction(request: Request, productId: string | null) {
  const actor = await requireAdminActor(request);
  let formData: FormData;
  try {
    formData = await readImageUploadForm(request);
  } catch (error) {
    if (!(error instanceof ImageRejectedError)) throw error;
    // Too large to read at all: nothing typed can be given back but the message under the picture field.
    return data({ result: { status: "error" as const, error: { image: [error.message] } } }, { status: error.status });
  }
  const submission = parseForm(formData, { schema: productFormSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });

  let imageUrl: string | null | undefined;
  const image = formData.get("image");
  if (image instanceof File && image.size > 0) {
    try {
      imageUrl = await storeProductImage(new Uint8Array(await image.arrayBuffer()));
    } catch (error) {
      if (!(error instanceof ImageRejectedError)) throw error;
      return data({ result: submission.reply({ fieldErrors: { image: [error.message] } }) }, { status: error.status });
    }
  } else if (formData.get("removeImage") === "on") {
    imageUrl = null;
  }

  const { stockLoaded, ...fields } = submission.value;
  const input = { ...fields, imageUrl, expectedStock: productId === null ? undefined : stockLoaded };
  if (productId === null) {
    const product = await createProduct(actor, input);
    return backWithToast(
      request,
      { type: "success", title: "Product created", description: `${product.name} is in the shop${product.isActive ? "" : " list, inactive"}.` },
      "/admin/products",
    );
  }
  const result = await updateProduct(actor, productId, input);
  if (!result.ok && result.reason === "not-found")
    return backWithToast(request, { type: "error", title: "Error", description: ADMIN_MESSAGES.productNotFound }, "/admin/products");
  // Sold (or edited) meanwhile; the form comes back as typed, the current figure beside it.
  // stockNow: the figure the form now carries as loaded (loaders are not run again after a 4xx).
  if (!result.ok) return data({ result: submission.reply({ fieldErrors: { stockQuantity: [result.message] } }), stockNow: result.stock }, { status: 409 });
  return backWithToast(request, { type: "success", title: "Product updated", description: `${result.product.name} has been saved.` }, "/admin/products");
}
