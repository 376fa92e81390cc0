import { useEffect } from "react";
import { data, Form, Link, useNavigation, useRevalidator } from "react-router";
import type { Route } from "./+types/memorials.$id.export";
import { latestMemorialExport, requestMemorialExport } from "~/models/memorials/export.server";
import { requireUser } from "~/request/auth.server";
import { redirectWithToast } from "~/request/toast.server";
import { formatLongDate } from "~/utils/dates";
import { EXPORT_MESSAGES } from "~/utils/memorial-export";
import { describeBytes } from "~/utils/upload-limits";
import type { KeptPageHandle } from "~/utils/kept-pages";

// "Download a copy" of a memorial: the owner asks here (or from the memorial page and My
// Memorials, which post to this action), watches it being prepared, and downloads it. To anyone but the
// owner, administrators included, the page does not exist (404). Personal, so never cached
// (server/request-handler.ts). Without JavaScript the page refreshes itself (a meta refresh inside
// <noscript>); with it, the loader is revalidated every two seconds while the copy is being made.

const POLL_MS = 2_000;
const REFRESH_SECONDS = 5;

export const handle: KeptPageHandle = { kept: { members: "any" } };

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const latest = await latestMemorialExport(params.id, user.id);
  if (!latest) throw data(null, { status: 404 });
  const { memorial, export: current } = latest;
  return {
    memorial: { id: memorial.id, name: `${memorial.firstName} ${memorial.lastName}` },
    export: current && {
      status: current.status,
      progress: current.progress,
      bytes: current.bytes,
      missingFiles: current.missingFiles,
      error: current.error,
      readyAt: current.readyAt?.toISOString() ?? null,
      expiresAt: current.expiresAt?.toISOString() ?? null,
    },
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  const page = `/memorials/${params.id}/export`;
  // "Download a copy" on the memorial page and My Memorials opens a copy still ready rather than making
  // another; "Prepare a new copy" here (intent=new) always makes one.
  const form = await request.formData();
  if (form.get("intent") !== "new") {
    const latest = await latestMemorialExport(params.id, user.id);
    if (!latest) throw data(null, { status: 404 });
    if (latest.export?.status === "ready") return redirectWithToast(page, { type: "success", title: EXPORT_MESSAGES.ready });
  }
  const requested = await requestMemorialExport(params.id, user);
  if (!requested) throw data(null, { status: 404 });
  if ("reason" in requested) return redirectWithToast(page, { type: "error", title: "Not prepared", description: requested.message });
  return redirectWithToast(page, {
    type: "success",
    title: requested.joined ? EXPORT_MESSAGES.alreadyRunning : EXPORT_MESSAGES.requested,
    description: EXPORT_MESSAGES.requestedDescription,
  });
}

export default function MemorialExportPage({ loaderData }: Route.ComponentProps) {
  const { memorial, export: current } = loaderData;
  const inProgress = current?.status === "queued" || current?.status === "building";
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!inProgress) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle" && document.visibilityState === "visible") void revalidator.revalidate();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [inProgress, revalidator]);
  const exportPath = `/memorials/${memorial.id}/export`;
  return (
    <div className="mx-auto max-w-xl px-4 py-12">
      <Link to={`/memorials/${memorial.id}`} className="link text-sm">
        ← Back to the memorial
      </Link>
      <h1 className="mt-4 text-2xl font-bold text-stone-900">{EXPORT_MESSAGES.title}</h1>
      <p className="mt-1 text-lg font-medium text-stone-900 wrap-anywhere">{memorial.name}</p>
      <p className="mt-4 text-stone-700">{EXPORT_MESSAGES.intro}</p>

      <section aria-labelledby="export-status-heading" className="mt-8 rounded-lg border border-stone-200 bg-white p-4">
        <h2 id="export-status-heading" className="font-semibold text-stone-900">
          {!current
            ? EXPORT_MESSAGES.title
            : current.status === "ready"
              ? EXPORT_MESSAGES.ready
              : current.status === "failed"
                ? EXPORT_MESSAGES.failed
                : current.status === "queued"
                  ? EXPORT_MESSAGES.queued
                  : EXPORT_MESSAGES.building}
        </h2>
        {!current ? <p className="mt-2 text-stone-700">{EXPORT_MESSAGES.none}</p> : null}
        {inProgress ? <Progress value={current.progress} refreshTo={exportPath} /> : null}
        {current?.status === "ready" ? (
          <div className="mt-3 space-y-3">
            <p className="text-stone-700">
              Made on {formatLongDate(current.readyAt)}
              {current.bytes !== null ? `, ${describeBytes(current.bytes)}` : ""}. You can download it until {formatLongDate(current.expiresAt)}.
            </p>
            {current.missingFiles ? <p className="text-amber-900">{EXPORT_MESSAGES.missingFiles(current.missingFiles)}</p> : null}
            {/* A plain link: the browser saves the file; the app's router must not fetch it. */}
            <a href={`${exportPath}/download`} className="btn-primary" download>
              {EXPORT_MESSAGES.download}
            </a>
          </div>
        ) : null}
        {current?.status === "failed" ? (
          <p className="mt-2 text-stone-700">
            {current.error ? `${current.error} ` : ""}
            {EXPORT_MESSAGES.failedHint}
          </p>
        ) : null}
        {!inProgress ? <RequestButton again={!!current} /> : null}
      </section>
    </div>
  );
}

function Progress({ value, refreshTo }: { value: number; refreshTo: string }) {
  return (
    <div className="mt-3 space-y-3">
      {/* Without JavaScript the page asks again by itself; with it, the loader is revalidated instead. */}
      <noscript>
        <meta httpEquiv="refresh" content={String(REFRESH_SECONDS)} />
      </noscript>
      <progress className="h-3 w-full accent-heather-700" max={100} value={value} aria-label={EXPORT_MESSAGES.progressLabel}>
        {value}%
      </progress>
      <p className="text-stone-700" aria-live="polite">
        {value}%
      </p>
      <p className="text-sm text-stone-700">{EXPORT_MESSAGES.refreshHint}</p>
      <Link to={refreshTo} className="btn-secondary">
        {EXPORT_MESSAGES.refresh}
      </Link>
    </div>
  );
}

function RequestButton({ again }: { again: boolean }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <Form method="post" className="mt-4">
      <input type="hidden" name="intent" value="new" />
      <button type="submit" className={again ? "btn-secondary" : "btn-primary"} disabled={busy}>
        {again ? EXPORT_MESSAGES.again : EXPORT_MESSAGES.start}
      </button>
    </Form>
  );
}

export const meta: Route.MetaFunction = () => [{ title: `${EXPORT_MESSAGES.title} · Everlight` }, { name: "robots", content: "noindex" }];
