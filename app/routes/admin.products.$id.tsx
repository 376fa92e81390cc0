import { data } from "react-router";
import { AdminSection } from "~/components/admin/admin-ui";
import type { Route } from "./+types/admin.products.$id";
import { ProductForm } from "~/components/admin/product-form";
import { isRecordId } from "~/models/memorials/access.server";
import { findProduct } from "~/models/commerce/products.server";
import { requireAdminActor } from "~/request/admin.server";
import { MAX_IMAGE_UPLOAD_BYTES, type RequestBodyHandle } from "~/utils/upload-limits";
import { productFormAction } from "./admin.products.server";
import type { KeptPageHandle } from "~/utils/kept-pages";

// Edit product: the same form, filled in; the price shown in pounds.

export const handle: RequestBodyHandle & KeptPageHandle = { body: { maxBytes: MAX_IMAGE_UPLOAD_BYTES }, kept: { members: "any" } };

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdminActor(request);
  const product = isRecordId(params.id) ? await findProduct(params.id) : null;
  if (!product) throw data({ message: "Product not found" }, { status: 404 });
  return { product: { ...product, pounds: (product.price / 100).toFixed(2) } };
}

export async function action({ request, params }: Route.ActionArgs) {
  return productFormAction(request, isRecordId(params.id) ? params.id : "");
}

export default function EditProduct({ loaderData, actionData }: Route.ComponentProps) {
  const { product } = loaderData;
  return (
    <AdminSection id="edit-product-heading" title={`Edit ${product.name}`}>
      <div className="mt-4">
        <ProductForm
          key={product.updatedAt.toString()}
          defaults={{
            name: product.name,
            description: product.description,
            category: product.category,
            price: product.pounds,
            stockQuantity: String(product.stockQuantity),
            isActive: product.isActive,
            imageUrl: product.imageUrl,
            stockLoaded: String(
              actionData && "stockNow" in actionData && typeof actionData.stockNow === "number" ? actionData.stockNow : product.stockQuantity,
            ),
          }}
          lastResult={actionData && "result" in actionData ? actionData.result : null}
          submitLabel="Save product"
        />
      </div>
    </AdminSection>
  );
}

export const meta: Route.MetaFunction = ({ data }) => [{ title: `${data?.product.name ?? "Product"} · Admin · Everlight` }];
