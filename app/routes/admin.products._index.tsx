import { Link } from "react-router";
import { parseForm } from "~/request/form.server";
import { z } from "~/utils/validation/zod";
import type { Route } from "./+types/admin.products._index";
import { AdminSection, Card, ConfirmAction, SearchForm, Tag } from "~/components/admin/admin-ui";
import { PagedList } from "~/components/admin/paged-list";
import { ProductImage } from "~/components/shop/product-image";
import { listProductsForAdmin, productImage, removeProduct } from "~/models/commerce/products.server";
import { backWithToast, listQuery, requireAdminActor } from "~/request/admin.server";
import { formatPence } from "~/utils/money";
import { ADMIN_MESSAGES, recordIdSchema } from "~/utils/validation/admin";
import type { KeptPageHandle } from "~/utils/kept-pages";

// Products tab: every product, active
// or not, with New product, Edit and Delete. A product that has been ordered is deactivated instead of
// deleted (its orders keep pointing at it); the confirmation says which will happen.

const actionSchema = z.object({ intent: z.literal("delete"), productId: recordIdSchema });

export const handle: KeptPageHandle = { kept: { members: "any" } };

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminActor(request);
  const query = listQuery(request);
  const list = await listProductsForAdmin(query);
  return { ...list, items: list.items.map((p) => ({ ...p, image: productImage(p.imageUrl) })), search: query.search };
}

export async function action({ request }: Route.ActionArgs) {
  const actor = await requireAdminActor(request);
  const submission = parseForm(await request.formData(), { schema: actionSchema });
  if (submission.status !== "success")
    return backWithToast(request, { type: "error", title: "Nothing was changed", description: "The form was incomplete. Please try again." });
  const result = await removeProduct(actor, submission.value.productId);
  if (!result.ok) return backWithToast(request, { type: "error", title: "Error", description: ADMIN_MESSAGES.deleteProductFailed });
  return backWithToast(
    request,
    result.outcome === "deleted"
      ? { type: "success", title: "Product deleted", description: `${result.name} has been deleted.` }
      : {
          type: "success",
          title: "Product deactivated",
          description: `${result.name} has orders, so it was deactivated rather than deleted: it is no longer in the shop.`,
        },
  );
}

export default function AdminProducts({ loaderData }: Route.ComponentProps) {
  const { items, total, page, pages, search } = loaderData;
  return (
    <AdminSection
      id="products-heading"
      title="Products"
      action={
        <Link to="/admin/products/new" className="btn-primary">
          New product
        </Link>
      }
    >
      <div className="mt-4">
        <SearchForm label="Search products by name or category" search={search} />
      </div>
      <PagedList
        items={items}
        empty="No products found."
        summary={{ total, noun: ["product", "products"], search }}
        page={page}
        pages={pages}
        base="/admin/products"
        query={{ q: search }}
      >
        {(p) => (
          <Card label={p.name}>
            <div className="flex flex-wrap items-start gap-4">
              <div className="h-16 w-16 shrink-0 overflow-hidden rounded">
                <ProductImage src={p.image.src} srcSet={p.image.srcSet} sizes="64px" alt="" width={64} height={64} className="h-16 w-16" />
              </div>
              <div className="min-w-48 flex-1">
                <h3 className="font-semibold text-stone-900 wrap-anywhere">
                  {p.name} {p.isActive ? <Tag tone="success">Active</Tag> : <Tag>Inactive</Tag>}
                </h3>
                <p className="text-sm text-stone-700">
                  {p.category} · {formatPence(p.price)} · {p.stockQuantity} in stock · ordered {p.orders} {p.orders === 1 ? "time" : "times"}
                </p>
              </div>
              <div className="flex flex-wrap items-start gap-2">
                <Link to={`/admin/products/${p.id}`} className="btn-secondary">
                  Edit<span className="sr-only"> {p.name}</span>
                </Link>
                <ConfirmAction
                  summary="Delete…"
                  warning={
                    <p>
                      {p.orders > 0
                        ? `${p.name} has been ordered, so it will be deactivated rather than deleted: it leaves the shop and every basket, and its orders keep it.`
                        : `Delete ${p.name}? It leaves the shop and every basket. This cannot be undone.`}
                    </p>
                  }
                  confirm={p.orders > 0 ? "Yes, deactivate this product" : "Yes, delete this product"}
                  intent="delete"
                  fields={{ productId: p.id }}
                />
              </div>
            </div>
          </Card>
        )}
      </PagedList>
    </AdminSection>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Products · Admin · Everlight" }];
