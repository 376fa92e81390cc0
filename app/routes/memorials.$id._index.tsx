import { parseForm } from "~/request/form.server";
import { data, Form, Link } from "react-router";
import type { Route } from "./+types/memorials.$id._index";
import { canEditContent } from "~/models/memorials/access-rules";
import { MemorialPortrait } from "~/components/memorial-portrait";
import { Gallery } from "~/components/memorial/gallery";
import { LockPanel, MemorialNotFound } from "~/components/memorial/lock-panel";
import { RememberTheDates } from "~/components/memorial/remember-dates";
import { ShareButtons } from "~/components/memorial/share-buttons";
import { LifeTimeline } from "~/components/memorial/life-timeline";
import { MemorialEvents } from "~/components/memorial/memorial-events";
import { TRIBUTES_SECTION, TributeSection } from "~/components/memorial/tributes";

import { calendarLinksFor } from "~/models/memorials/calendar.server";
import { FollowBox } from "~/components/memorial/follow";
import { BookOffer } from "~/components/memorial/book-offer";
import { bookOfferFor } from "~/models/memorials/book.server";
import { countOf, nonZeroCounts } from "~/utils/counts";
import { followOf } from "~/models/community/follows.server";
import { imageSources, socialCardPath } from "~/models/memorials/media.server";
import { canViewMemorial, findMemorialForViewer } from "~/models/memorials/access.server";
import { permanentUrl } from "~/models/memorials/records.server";
import { describeEvent, listEvents } from "~/models/memorials/events.server";
import { listTimeline } from "~/models/memorials/timeline.server";
import {
  canModerate,
  canSeePendingTributes,
  leaveTribute,
  listApprovedTributes,
  listPendingTributes,
  moderateTribute,
  moderationToast,
} from "~/models/tributes/tributes.server";
import { actorOf, getOptionalUser, loginPath } from "~/request/auth.server";
import { publicUrl } from "~/services/env.server";
import { checkFormGuard, issueFormStamp } from "~/request/form-guard.server";
import { clientIp } from "~/request/facts.server";
import { countOpening } from "~/request/memorial-views.server";
import type { HydrateOnUseHandle } from "~/request/hydrate-on-use.server";
import { redirectWithToast } from "~/request/toast.server";
import { draftTributeWithAi } from "./memorial-page.server";
import { formatLongDate } from "~/utils/dates";
import { EXPORT_MESSAGES } from "~/utils/memorial-export";
import { PAGE_NUMBER_MESSAGE, parsePageNumber } from "~/utils/paging";
import { memorialSocialMeta } from "~/utils/social-meta";
import { truncate } from "~/utils/text";
import { VISIBILITY_LABELS } from "~/utils/validation/account-rules";
import { TRIBUTE_MESSAGES } from "~/utils/validation/tribute-rules";
import { tributeSchema } from "~/utils/validation/tribute";
import type { KeptPageHandle } from "~/utils/kept-pages";

// The page a shared link lands on: readable at once, scripts once the visitor uses it or nears the tribute
// form or the share buttons (data-hydrate-near; app/request/hydrate-on-use.server.ts).
export const handle: HydrateOnUseHandle & KeptPageHandle = { hydrateOnUse: true, kept: { visitors: "memorial", members: "any", countsViews: true } };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = await getOptionalUser(request);
  const lookup = await findMemorialForViewer(params.id, viewer);
  if (lookup.status === "not-found") return data({ status: "not-found" as const }, { status: 404 });
  if (lookup.status === "locked") {
    return data({ status: "locked" as const, reason: lookup.reason, signedIn: !!viewer, loginHref: loginPath(request) }, { status: 403 });
  }
  const { memorial, isOwner } = lookup;
  await countOpening(memorial.id, (name) => request.headers.get(name));
  const url = new URL(request.url);
  // Links to share and the canonical address: the site's own address (PUBLIC_URL), never the Host header's.
  const site = publicUrl();
  const moderator = canModerate(viewer, memorial);
  const seesPending = canSeePendingTributes(viewer, memorial);
  const tributesPage = parsePageNumber(url.searchParams.get("tributes"));
  if (tributesPage === null) throw data({ message: PAGE_NUMBER_MESSAGE }, { status: 400 });
  const [approved, pending, timeline, follow, events, book] = await Promise.all([
    listApprovedTributes(memorial.id, tributesPage),
    seesPending ? listPendingTributes(memorial.id) : null,
    listTimeline(memorial.id),
    // A draft is seen only by its family, and offers nothing a visitor does: no following, no book.
    viewer && memorial.isPublished ? followOf(memorial.id, viewer.id) : null,
    listEvents(memorial.id),
    memorial.isPublished ? bookOfferFor(memorial, viewer, lookup.role) : null,
  ]);
  context.tributePages?.(approved.pages);
  const portrait = memorial.profileImageUrl ? imageSources(memorial.profileImageUrl) : null;
  return {
    status: "ok" as const,
    isOwner,
    // Owner, manager or editor: the Edit button.
    canEdit: canEditContent(lookup.role),
    // "Remember the dates": the same public links for every visitor, so the anonymous page
    // cache may keep them; a private link only for the owner and co-managers, who are never served a kept copy.
    calendar: calendarLinksFor(memorial, lookup.role),
    url: `${site}/memorials/${memorial.id}`,
    site,
    // The portrait's 1200×630 social card (or the site's own) for link previews.
    card: socialCardPath(memorial.profileImageUrl),
    // The life timeline: dated events in date order, each with its photo when it has one.
    timeline: timeline.map((e) => ({
      id: e.id,
      kind: e.kind,
      year: e.year,
      month: e.month,
      day: e.day,
      title: e.title,
      description: e.description,
      photo: e.photo && e.photo.mediaType.startsWith("image/") ? { ...imageSources(e.photo.mediaUrl), caption: e.photo.caption } : null,
    })),
    // The funeral, services and gatherings; coming ones take replies, past ones stay as part of the story.
    events: events.map((e) => describeEvent(e)),
    // A member's Follow button ("Following" with Unfollow); null for a visitor (the email form).
    // The printed book, for the family and the owner's friends while the family offers it.
    book,
    follow: viewer ? { following: !!follow, reminders: follow?.anniversaryReminders ?? false, showName: follow?.showName ?? false } : null,
    tributes: {
      approved,
      pending,
      canModerate: moderator,
      adminRestricted: seesPending && !moderator,
      defaults: { authorName: viewer ? `${viewer.firstName} ${viewer.lastName}` : "", authorEmail: viewer?.email ?? "" },
      // The anonymous page cache renders a placeholder here and stamps each copy it serves (server/page-cache.ts).
      stamp: context.formStamp ?? issueFormStamp(),
    },
    memorial: {
      id: memorial.id,
      title: memorial.title,
      firstName: memorial.firstName,
      lastName: memorial.lastName,
      dateOfBirth: memorial.dateOfBirth?.toISOString() ?? null,
      dateOfPassing: memorial.dateOfPassing?.toISOString() ?? null,
      biography: memorial.biography,
      visibility: memorial.visibility as keyof typeof VISIBILITY_LABELS,
      isPublished: memorial.isPublished,
      createdAt: memorial.createdAt.toISOString(),
      // The address that never changes (the one on its QR code), in the share area.
      permanentUrl: permanentUrl(memorial.shortId),
      portrait,
      media: memorial.media.map((m) => ({
        id: m.id,
        mediaType: m.mediaType,
        caption: m.caption,
        ...(m.mediaType.startsWith("image/") ? imageSources(m.mediaUrl) : { src: m.mediaUrl, full: m.mediaUrl }),
      })),
    },
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const viewer = await getOptionalUser(request);
  // Whether this person may see the memorial is all a tribute needs (not its photos): the light look-up (one
  // query for the family) the media route makes too.
  const mayView = async () => !!(await canViewMemorial(params.id, viewer))?.allowed;
  const form = await request.formData();
  const intent = form.get("intent");
  const back = `/memorials/${params.id}#${TRIBUTES_SECTION}`;

  if (intent === "approve" || intent === "reject") {
    // Whoever may moderate a memorial's tributes may see it: a moderation done needs no other look-up. One
    // refused is answered as before, 404 to someone who may not see the memorial. Only this memorial's
    // tributes are moderated from its page.
    const result = viewer ? await moderateTribute(intent, String(form.get("tributeId") ?? ""), actorOf(viewer, request), params.id) : "not-found";
    if (result !== "ok" && !(await mayView())) throw data(null, { status: 404 });
    return redirectWithToast(back, moderationToast(intent, result));
  }
  if (!(await mayView())) throw data(null, { status: 404 });

  // The spam checks are for anonymous visitors: a signed-in member is known,
  // and is never told they were "quicker than expected".
  const guard = viewer ? "ok" : checkFormGuard(form);

  if (intent === "ai-tribute") {
    // The tribute assistant without JavaScript: the form comes back with a draft, nothing is saved.
    // Bots fill every field; they get no free text (the same honeypot as the tribute itself).
    const refusal = guard === "honeypot" ? TRIBUTE_MESSAGES.honeypot : null;
    const lookup = await findMemorialForViewer(params.id, viewer);
    if (lookup.status !== "ok") throw data(null, { status: 404 });
    const { status, ...result } = await draftTributeWithAi(form, { memorial: lookup.memorial, who: { user: viewer, ip: clientIp(request) }, refusal });
    return data(result, { status });
  }

  // Leave Tribute: anyone who may see the memorial, signed in or not.
  const submission = parseForm(form, { schema: tributeSchema });
  const refuse = (refusal: string, status: number, headers?: HeadersInit) => data({ tribute: submission.reply(), refusal }, { status, headers });
  if (guard === "honeypot") return refuse(TRIBUTE_MESSAGES.honeypot, 400);
  if (guard !== "ok") return refuse(TRIBUTE_MESSAGES.tooFast, 400);
  if (submission.status !== "success") return data({ tribute: submission.reply(), refusal: null }, { status: 400 });
  const left = await leaveTribute(params.id, submission.value, clientIp(request));
  if (!left.ok) return refuse(left.message, 429, { "Retry-After": String(left.retryAfterSeconds) });
  // The thanks is shown in the tribute section, where the visitor lands (#tributes), not off screen.
  return redirectWithToast(back, { type: "success", title: "Tribute submitted", description: TRIBUTE_MESSAGES.pending, at: TRIBUTES_SECTION });
}

export default function MemorialPage({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.status === "not-found") return <MemorialNotFound />;
  if (loaderData.status === "locked") return <LockPanel reason={loaderData.reason} signedIn={loaderData.signedIn} loginHref={loaderData.loginHref} />;
  const { memorial, isOwner, canEdit, url, tributes, timeline, calendar, follow, events, book } = loaderData;
  const tributeCount = tributes.approved.total;
  const name = `${memorial.firstName} ${memorial.lastName}`;
  const badge = !memorial.isPublished ? "Draft" : VISIBILITY_LABELS[memorial.visibility];
  const photos = memorial.media.filter((m) => m.mediaType.startsWith("image/")).length;
  const videos = memorial.media.length - photos;
  const paragraphs = memorial.biography?.split(/\n\s*\n/).filter((p) => p.trim()) ?? [];
  return (
    <article className="mx-auto max-w-4xl px-4 py-8">
      {/* Printed (app.css @media print): the memorial itself, without the page's controls and the side column. */}
      <div className="flex flex-wrap items-center justify-between gap-3" data-print="hide">
        <Link to="/market" className="link text-sm">
          ← Back to memorials
        </Link>
        <div className="flex flex-wrap items-center gap-2">
          <span
            className={`rounded-full px-3 py-1 text-sm font-semibold ${memorial.isPublished ? "bg-heather-50 text-heather-800" : "bg-amber-100 text-amber-900"}`}
          >
            {badge}
          </span>
          {canEdit ? (
            <Link to={`/memorials/${memorial.id}/edit`} className="btn-primary">
              Edit
            </Link>
          ) : null}
          {isOwner ? (
            <>
              {/* Take the memorial away as a ZIP: prepared in the background, on its own page. */}
              <Form method="post" action={`/memorials/${memorial.id}/export`}>
                <button type="submit" className="btn-secondary">
                  {EXPORT_MESSAGES.action}
                </button>
              </Form>
            </>
          ) : null}
        </div>
      </div>

      <header className="mt-6 flex flex-col items-center gap-6 text-center sm:flex-row sm:items-end sm:text-left">
        <MemorialPortrait
          src={memorial.portrait?.src}
          srcSet={memorial.portrait?.srcSet}
          sizes="(min-width: 640px) 192px, 160px"
          name={name}
          width={192}
          height={192}
          priority
          className="h-40 w-40 shrink-0 rounded-full border-4 border-white shadow-md sm:h-48 sm:w-48"
        />
        <div className="max-w-full min-w-0 wrap-anywhere">
          <h1 className="text-4xl font-bold text-stone-900">{name}</h1>
          {memorial.dateOfBirth || memorial.dateOfPassing ? (
            <p className="mt-2 text-lg text-stone-700">
              {formatLongDate(memorial.dateOfBirth) || "Unknown"} – {formatLongDate(memorial.dateOfPassing) || "Unknown"}
            </p>
          ) : null}
          {memorial.title && memorial.title !== name ? <p className="mt-1 text-stone-700 italic">{memorial.title}</p> : null}
        </div>
      </header>

      <div className="mt-10 grid gap-10 lg:grid-cols-[1fr_16rem]">
        <div>
          <section aria-labelledby="biography-heading">
            <h2 id="biography-heading" className="text-2xl font-semibold text-stone-900">
              Life story
            </h2>
            {paragraphs.length ? (
              <div className="mt-3 space-y-4 leading-relaxed text-stone-800 wrap-anywhere">
                {paragraphs.map((p, i) => (
                  <p key={i} className="render-when-near-sm whitespace-pre-line">
                    {p}
                  </p>
                ))}
              </div>
            ) : (
              <p className="mt-3 text-stone-700">No biography has been added yet.</p>
            )}
          </section>
          {timeline.length || canEdit ? (
            <LifeTimeline events={timeline} name={name} editHref={canEdit ? `/memorials/${memorial.id}/timeline` : undefined} />
          ) : null}
          {events.length || canEdit ? (
            <MemorialEvents memorialId={memorial.id} events={events} manageHref={canEdit ? `/memorials/${memorial.id}/events` : undefined} />
          ) : null}
          {memorial.media.length ? <Gallery items={memorial.media} name={name} /> : null}
          {memorial.isPublished ? (
            <TributeSection
              memorialId={memorial.id}
              personName={memorial.firstName}
              {...tributes}
              lastResult={actionData?.tribute}
              refusal={actionData?.refusal}
              assistant={actionData && "assistant" in actionData ? actionData.assistant : null}
            />
          ) : (
            <section aria-labelledby="tributes-heading" className="mt-12">
              <h2 id="tributes-heading" className="text-2xl font-semibold text-stone-900">
                Tributes
              </h2>
              <p className="mt-3 text-stone-700">Once this memorial is published, visitors can leave their tributes here, and you approve each one.</p>
            </section>
          )}
        </div>
        <aside className="space-y-6" data-print="hide">
          <section aria-labelledby="stats-heading" className="rounded-lg border border-stone-200 p-4">
            <h2 id="stats-heading" className="font-semibold text-stone-900">
              Memorial details
            </h2>
            <dl className="mt-3 space-y-2 text-sm">
              <Stat label="Tributes" value={tributeCount ? countOf(tributeCount, "tribute") : "None yet"} />
              <Stat
                label="Photos and videos"
                value={
                  nonZeroCounts([
                    [photos, "photo"],
                    [videos, "video"],
                  ]) || "None yet"
                }
              />
              <Stat label="Visibility" value={VISIBILITY_LABELS[memorial.visibility]} />
              <Stat label="Created" value={formatLongDate(memorial.createdAt)} />
            </dl>
          </section>
          {calendar ? (
            <RememberTheDates
              links={calendar}
              firstName={memorial.firstName}
              fullName={name}
              dates={{ birthday: !!memorial.dateOfBirth, passing: !!memorial.dateOfPassing }}
            />
          ) : null}
          {memorial.isPublished ? <FollowBox memorialId={memorial.id} name={name} state={follow} /> : null}
          <BookOffer memorialId={memorial.id} name={name} offer={book} />
          {memorial.isPublished ? <ShareSection memorialId={memorial.id} url={url} name={name} permanentUrl={memorial.permanentUrl} /> : null}
        </aside>
      </div>
    </article>
  );
}

function ShareSection({ memorialId, url, name, permanentUrl }: { memorialId: string; url: string; name: string; permanentUrl: string }) {
  return (
    <section aria-labelledby="share-heading" className="render-when-near" data-hydrate-near="">
      <h2 id="share-heading" className="font-semibold text-stone-900">
        Share this memorial
      </h2>
      <div className="mt-3">
        <ShareButtons memorialId={memorialId} url={url} name={name} />
      </div>
      <p className="mt-3 text-sm text-stone-700">
        Permanent link:{" "}
        <a href={permanentUrl} className="link wrap-anywhere">
          {permanentUrl}
        </a>
      </p>
    </section>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between gap-3">
      <dt className="text-stone-700">{label}</dt>
      <dd className="font-medium text-stone-900">{value}</dd>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ data: d }) => {
  if (!d || d.status === "not-found") return [{ title: "Memorial Not Found · Everlight" }];
  if (d.status === "locked") return [{ title: "Memorial · Everlight" }, { name: "robots", content: "noindex" }];
  const name = `${d.memorial.firstName} ${d.memorial.lastName}`;
  const description = truncate(d.memorial.biography, 160) || `A memorial for ${name} on Everlight.`;
  // Only a published public memorial may be indexed: an unlisted one is read by its link alone.
  const isPublic = d.memorial.isPublished && d.memorial.visibility === "public";
  return [
    { title: `${name} · Everlight` },
    { name: "description", content: description },
    ...(isPublic ? [] : [{ name: "robots", content: "noindex" }]),
    ...memorialSocialMeta(d.memorial, { site: d.site, card: d.card, url: d.url }),
  ];
};
