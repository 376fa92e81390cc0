import { useEffect } from "react";
import { data, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/root";
import { ErrorPage } from "~/components/error-page";
import { SiteFooter } from "~/components/site-footer";
import { SiteHeader } from "~/components/site-header";
import { Toaster } from "~/components/toaster";
import { countCartItems } from "~/models/commerce/cart.server";
import { getOptionalUser } from "~/request/auth.server";
import { readToast } from "~/request/toast.server";
import { useNonce } from "~/utils/nonce";
import stylesheet from "./app.css?url";

export async function loader({ request }: Route.LoaderArgs) {
  const [user, { toast, clear }] = await Promise.all([getOptionalUser(request), readToast(request)]);
  const cartCount = user ? await countCartItems(user.id) : 0;
  return data(
    {
      // Only what the shell shows: never the whole user row.
      user: user ? { id: user.id, firstName: user.firstName, lastName: user.lastName, profileImageUrl: user.profileImageUrl, isAdmin: user.isAdmin } : null,
      cartCount,
      toast,
    },
    { headers: clear ? { "Set-Cookie": clear } : undefined },
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  // The error boundary renders this layout too, when the root loader may have failed: no data then.
  const shell = useRouteLoaderData<typeof loader>("root");
  // A mark that the page is interactive (error pages too), for the browser tests to wait on (e2e/fixtures.ts).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <html lang="en-GB">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#3730a3" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* With a precedence React puts the stylesheet ahead of the script preloads, so a phone on a
            slow line fetches what the first paint needs first (Largest Contentful Paint). */}
        <link rel="stylesheet" href={stylesheet} precedence="default" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
        <SiteHeader user={shell?.user ?? null} cartCount={shell?.cartCount ?? 0} />
        <Toaster toast={shell?.toast ?? null} />
        <main id="main" className="flex-1">
          {children}
        </main>
        <SiteFooter />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
