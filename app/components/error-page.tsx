import { isRouteErrorResponse } from "react-router";
import { ButtonLinks, type ButtonLink } from "~/components/button-links";

// The one error page: friendly words for 401/403/404,
// a generic page for anything unexpected, never a stack trace.
export function ErrorPage({ error }: { error: unknown }) {
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) return <NotFound />;
    if (error.status === 403) {
      return (
        <ErrorLayout title="Access Denied" status={403}>
          <p>{messageOf(error.data) ?? "You don't have permission to view this page."}</p>
        </ErrorLayout>
      );
    }
    if (error.status === 401) {
      return (
        <ErrorLayout title="Please sign in" status={401}>
          <p>You need to be signed in to see this page.</p>
        </ErrorLayout>
      );
    }
    return (
      <ErrorLayout title="Something went wrong" status={error.status}>
        <p>{messageOf(error.data) ?? error.statusText ?? "The request could not be completed."}</p>
      </ErrorLayout>
    );
  }
  return (
    <ErrorLayout title="Something went wrong" status={500}>
      <p>An unexpected error occurred on our side. Please try again in a moment.</p>
    </ErrorLayout>
  );
}

/**
 * Any other path shows this, under the usual heading; the stock sentence for developers
 * ("Did you forget to add the page to the router?") is replaced by one for the visitor, with the two
 * places they most likely wanted.
 */
export function NotFound() {
  return (
    <ErrorLayout title="404 Page Not Found" status={404} links={[HOME, GALLERY]}>
      <p>Sorry, we could not find the page you were looking for.</p>
      <p>It may have moved, or there may be a small mistake in the address. The memorials you were looking for may be in our gallery.</p>
    </ErrorLayout>
  );
}

const HOME: ButtonLink = { to: "/", label: "Go home" };
const HELP: ButtonLink = { to: "/help", label: "Help Center" };
const GALLERY: ButtonLink = { to: "/memorials", label: "Browse memorials" };

function messageOf(data: unknown): string | undefined {
  if (typeof data === "string" && data.length > 0 && data.length < 300) return data;
  if (data && typeof data === "object" && "message" in data && typeof data.message === "string") return data.message;
  return undefined;
}

function ErrorLayout({ title, status, children, links = [HOME, HELP] }: { title: string; status: number; children: React.ReactNode; links?: ButtonLink[] }) {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-start gap-4 px-4 py-20">
      <p className="text-sm font-semibold uppercase tracking-wide text-heather-700">Error {status}</p>
      <h1 className="text-3xl font-bold text-stone-900">{title}</h1>
      <div className="space-y-2 text-stone-700">{children}</div>
      <ButtonLinks className="mt-4" links={links} />
    </div>
  );
}
