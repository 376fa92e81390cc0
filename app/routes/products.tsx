import { parseForm } from "~/request/form.server";
import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/products";
import { Pager } from "~/components/pager";
import { ProductImage } from "~/components/shop/product-image";
import { addToCart, basketQuantities } from "~/models/commerce/cart.server";
import { countProductsByGroup, listActiveProducts, productImage } from "~/models/commerce/products.server";
import { getOptionalUser } from "~/request/auth.server";
import { redirectWithToast } from "~/request/toast.server";
import { formatPence, TAX_PERCENT } from "~/utils/money";
import { PAGE_NUMBER_MESSAGE, parsePageNumber } from "~/utils/paging";
import { groupOf, isShopGroup, previewDescription, SHOP_GROUP_IDS, SHOP_GROUPS, SHOP_MESSAGES, stockState, type ShopGroup } from "~/utils/shop";
import { addToCartFormSchema } from "~/utils/validation/shop";
import type { HydrateOnUseHandle } from "~/request/hydrate-on-use.server";
import type { KeptPageHandle } from "~/utils/kept-pages";

// Complete as plain HTML: its scripts wait for the visitor's first use (app/request/hydrate-on-use.server.ts).
export const handle: HydrateOnUseHandle & KeptPageHandle = { hydrateOnUse: true, kept: { visitors: "products", members: "any" } };

// The shop: active products with their picture,
// name, a 50-character description, price and stock, filtered by the shop's groups (digital, physical,
// service, mapped onto the admin categories in app/utils/shop.ts). Add to cart is a form, so it works
// without JavaScript; a visitor is sent to sign in ("Please log in to add items to cart") and brought back
// to the product. Real data only: no invented ratings, review counts or badges.

export async function loader({ request }: Route.LoaderArgs) {
  const user = await getOptionalUser(request);
  const url = new URL(request.url);
  const category = url.searchParams.get("category");
  // An unknown group shows every product (as the browse page treats unknown values).
  const group: ShopGroup | null = isShopGroup(category) ? category : null;
  const page = parsePageNumber(url.searchParams.get("page"));
  if (page === null) throw data({ message: PAGE_NUMBER_MESSAGE }, { status: 400 });
  const [list, counts, inBasket] = await Promise.all([
    listActiveProducts({ group, page }),
    countProductsByGroup(),
    user ? basketQuantities(user.id) : Promise.resolve({} as Record<string, number>),
  ]);
  return {
    group,
    counts,
    signedIn: !!user,
    page: list.page,
    pages: list.pages,
    total: list.total,
    products: list.items.map((p) => ({
      id: p.id,
      name: p.name,
      preview: previewDescription(p.description),
      description: p.description.trim(),
      price: p.price,
      category: p.category,
      group: groupOf(p.category),
      stock: p.stockQuantity,
      inBasket: inBasket[p.id] ?? 0,
      image: productImage(p.imageUrl),
    })),
  };
}

/** Back to the same listing, at the product's card. */
function backTo(request: Request, productId: string | undefined) {
  const { search } = new URL(request.url);
  const params = new URLSearchParams(search);
  params.delete("index");
  const query = params.toString();
  return `/products${query ? `?${query}` : ""}${productId ? `#product-${productId}` : ""}`;
}

export async function action({ request }: Route.ActionArgs) {
  const user = await getOptionalUser(request);
  const submission = parseForm(await request.formData(), { schema: addToCartFormSchema });
  const productId = submission.status === "success" ? submission.value.productId : undefined;
  const back = backTo(request, productId && /^[0-9a-f-]{36}$/i.test(productId) ? productId : undefined);
  if (!user) {
    // Adding needs a member; after signing in they come back to this product.
    return redirectWithToast(`/login?${new URLSearchParams({ redirectTo: back })}`, { type: "info", title: SHOP_MESSAGES.loginToAdd });
  }
  if (submission.status !== "success") {
    return redirectWithToast(back, { type: "error", title: SHOP_MESSAGES.addFailed, description: SHOP_MESSAGES.productGone });
  }
  const result = await addToCart(user, submission.value);
  if (!result.ok) {
    // A message about stock is titled Stock Limitation.
    const title = /stock/i.test(result.message) ? SHOP_MESSAGES.stockTitle : SHOP_MESSAGES.addFailed;
    return redirectWithToast(back, { type: "error", title, description: result.message });
  }
  return redirectWithToast(back, { type: "success", title: SHOP_MESSAGES.added, description: `${result.name} is in your basket (${result.quantity}).` });
}

export default function ProductsPage({ loaderData }: Route.ComponentProps) {
  const { products, group, counts, page, pages, total } = loaderData;
  const groups = SHOP_GROUP_IDS.filter((g) => counts[g] > 0 || g === group);
  const all = SHOP_GROUP_IDS.reduce((sum, g) => sum + counts[g], 0);
  const pageLink = (n: number) => `/products?${new URLSearchParams({ ...(group ? { category: group } : {}), ...(n > 1 ? { page: String(n) } : {}) })}`;
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold text-stone-900">Memorial Products</h1>
          <p className="mt-1 max-w-2xl text-stone-700">
            Keepsakes, candles, frames and more to remember someone by. Prices are before tax; {TAX_PERCENT}% tax is added in your basket.
          </p>
        </div>
        <Link to="/basket" className="btn-secondary">
          View basket
        </Link>
      </div>

      <nav aria-label="Product categories" className="mt-6">
        <ul className="flex flex-wrap gap-2">
          <FilterLink to="/products" current={group === null} label="All products" count={all} />
          {groups.map((g) => (
            <FilterLink key={g} to={`/products?category=${g}`} current={group === g} label={SHOP_GROUPS[g].label} count={counts[g]} />
          ))}
        </ul>
      </nav>

      {products.length === 0 ? (
        <p className="mt-10 rounded-lg border border-stone-200 bg-white p-6 text-stone-800">
          {group ? `No ${SHOP_GROUPS[group].label.toLowerCase()} products yet.` : "No products are for sale just now."}{" "}
          {group ? (
            <Link to="/products" className="link">
              See all products
            </Link>
          ) : null}
        </p>
      ) : (
        <ul className="mt-8 grid gap-4 sm:grid-cols-2 sm:gap-6 lg:grid-cols-3" aria-label={`${total} product${total === 1 ? "" : "s"}`}>
          {products.map((product) => (
            <li key={product.id}>
              <ProductCard product={product} />
            </li>
          ))}
        </ul>
      )}

      <Pager page={page} pages={pages} href={pageLink} />
    </div>
  );
}

function FilterLink({ to, current, label, count }: { to: string; current: boolean; label: string; count: number }) {
  return (
    <li>
      <Link
        to={to}
        aria-current={current ? "page" : undefined}
        className={`inline-flex rounded-full border px-4 py-1.5 text-sm font-medium ${
          current ? "border-heather-700 bg-heather-700 text-white" : "border-stone-300 bg-white text-stone-800 hover:bg-stone-50"
        }`}
      >
        {label} ({count})
      </Link>
    </li>
  );
}

type CardProduct = Route.ComponentProps["loaderData"]["products"][number];

function ProductCard({ product }: { product: CardProduct }) {
  const navigation = useNavigation();
  const adding = navigation.state === "submitting" && navigation.formData?.get("productId") === product.id;
  const stock = stockState(product.stock);
  const allInBasket = product.stock > 0 && product.inBasket >= product.stock;
  const headingId = `product-${product.id}-name`;
  return (
    <article
      id={`product-${product.id}`}
      aria-labelledby={headingId}
      // On a phone the picture sits beside the words (a screen holds three products, not one); wider, above them.
      className="flex h-full overflow-hidden rounded-lg border border-stone-200 bg-white shadow-sm sm:flex-col"
    >
      <ProductImage
        src={product.image.src}
        srcSet={product.image.srcSet}
        sizes="(min-width: 1024px) 360px, (min-width: 640px) 50vw, 112px"
        alt={product.name}
        width={400}
        height={300}
        className="aspect-square w-28 shrink-0 self-start bg-stone-100 min-[360px]:w-32 sm:aspect-[4/3] sm:w-full"
      />
      <div className="flex min-w-0 flex-1 flex-col gap-2 p-3 sm:p-4">
        <p className="text-sm text-stone-700">
          {product.category} · {SHOP_GROUPS[product.group].label}
        </p>
        <h2 id={headingId} className="text-base font-semibold text-stone-900 wrap-anywhere sm:text-lg">
          {product.name}
        </h2>
        {product.description.length > product.preview.length ? (
          // Closed: the preview, then More. Open: the whole description in its place, then Less (the
          // preview is hidden so nothing is said twice; column-reverse puts the summary after the text).
          // A <details>, so it works without JavaScript and is announced as expanded or collapsed.
          <div className="group/description text-sm text-stone-700 wrap-anywhere sm:text-base">
            <p className="group-has-[details[open]]/description:hidden">{product.preview}</p>
            <details className="flex flex-col-reverse">
              <summary className="link w-fit cursor-pointer list-none text-sm [&::-webkit-details-marker]:hidden">
                <span className="group-has-[details[open]]/description:hidden">More</span>
                <span className="hidden group-has-[details[open]]/description:inline">Less</span>
                <span className="sr-only"> about {product.name}</span>
              </summary>
              <p className="wrap-anywhere">{product.description}</p>
            </details>
          </div>
        ) : (
          <p className="text-sm text-stone-700 wrap-anywhere sm:text-base">{product.preview}</p>
        )}
        <div className="mt-auto flex flex-wrap items-baseline justify-between gap-2 pt-2">
          <p className="text-xl font-bold text-stone-900">{formatPence(product.price)}</p>
          <p className={`text-sm font-medium ${stock.kind === "out" ? "text-red-800" : stock.kind === "low" ? "text-amber-800" : "text-emerald-800"}`}>
            {stock.label}
          </p>
        </div>
        {product.inBasket > 0 ? (
          <p className="text-sm text-stone-700">
            In your basket: {product.inBasket}.{" "}
            <Link to="/basket" className="link">
              View basket
            </Link>
          </p>
        ) : null}
        <Form method="post" preventScrollReset>
          <input type="hidden" name="productId" value={product.id} />
          <input type="hidden" name="quantity" value="1" />
          <button
            type="submit"
            className="btn-primary w-full"
            disabled={stock.kind === "out" || allInBasket || adding}
            // The product's name with the visible words, so each of the page's buttons says what it adds.
            aria-label={stock.kind === "out" ? undefined : `${adding ? "Adding..." : "Add to cart"}, ${product.name}`}
            aria-describedby={allInBasket ? `${headingId}-all` : undefined}
          >
            {stock.kind === "out" ? "Out of stock" : adding ? "Adding..." : "Add to cart"}
          </button>
          {allInBasket ? (
            <p id={`${headingId}-all`} className="mt-1 text-sm text-stone-700">
              All {product.stock} in stock are in your basket.
            </p>
          ) : null}
        </Form>
      </div>
    </article>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Memorial Products · Everlight" },
  { name: "description", content: "Memorial keepsakes, candles, frames, jewellery and more, sent with care." },
];
