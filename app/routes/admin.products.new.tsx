import { AdminSection } from "~/components/admin/admin-ui";
import type { Route } from "./+types/admin.products.new";
import { ProductForm } from "~/components/admin/product-form";
import { requireAdminActor } from "~/request/admin.server";
import { MAX_IMAGE_UPLOAD_BYTES, type RequestBodyHandle } from "~/utils/upload-limits";
import { productFormAction } from "./admin.products.server";
import type { KeptPageHandle } from "~/utils/kept-pages";

// New product: the form of admin.products.server.ts; the shop shows it once it is active.

// The form carries one picture: the server lets this route read that much (after the admin check).
export const handle: RequestBodyHandle & KeptPageHandle = { body: { maxBytes: MAX_IMAGE_UPLOAD_BYTES }, kept: { members: "any" } };

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminActor(request);
  return null;
}

export const action = ({ request }: Route.ActionArgs) => productFormAction(request, null);

export default function NewProduct({ actionData }: Route.ComponentProps) {
  return (
    <AdminSection id="new-product-heading" title="New product">
      <div className="mt-4">
        <ProductForm
          defaults={{ name: "", description: "", category: "", price: "", stockQuantity: "0", isActive: true, imageUrl: null }}
          lastResult={actionData && "result" in actionData ? actionData.result : null}
          submitLabel="Create product"
        />
      </div>
    </AdminSection>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "New product · Admin · Everlight" }];
