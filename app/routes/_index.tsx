import { data, replace } from "react-router";
import type { Route } from "./+types/_index";
import { Dashboard } from "~/components/dashboard/dashboard";
import { LandingPage } from "~/components/landing-page";
import { isFeedbackPopupDue, recordPopupComplete, recordPopupSkip, saveFeedback } from "~/models/feedback.server";
import { countOwnMemorials, DASHBOARD_HIGHLIGHTS, listRecentOwnMemorials } from "~/models/memorials/own-memorials.server";
import { listRecentPublicMemorials } from "~/models/memorials/gallery.server";
import { countPendingForOwner } from "~/models/tributes/tributes.server";
import { getOptionalUser, requireUser } from "~/request/auth.server";
import type { HydrateOnUseHandle } from "~/request/hydrate-on-use.server";
import { publicUrl } from "~/services/env.server";
import { withToast } from "~/request/toast.server";
import {
  feedbackViewFrom,
  FEEDBACK_MESSAGES,
  FEEDBACK_QUESTIONS,
  firstUnanswered,
  readDraftAnswers,
  UX_FEEDBACK,
  uxFeedbackAnswersSchema,
} from "~/utils/feedback";
import { SITE_NAME } from "~/utils/site";
import { siteSocialMeta } from "~/utils/social-meta";
import type { KeptPageHandle } from "~/utils/kept-pages";

// "/": visitors get the landing page, signed-in members their dashboard, which
// hosts the UX feedback popup. The popup's answers are posted here, with or without JavaScript.

// The landing page is complete as plain HTML: its scripts wait for the visitor's first use
// (app/request/hydrate-on-use.server.ts). A member's dashboard at the same address loads them at once.
export const handle: HydrateOnUseHandle & KeptPageHandle = {
  hydrateOnUse: (loaderData) => (loaderData as { kind?: string } | undefined)?.kind === "landing",
  kept: { visitors: "landing", members: "any" },
};

export async function loader({ request }: Route.LoaderArgs) {
  const user = await getOptionalUser(request);
  // `site` (PUBLIC_URL) for the link preview's absolute addresses.
  if (!user) return data({ kind: "landing" as const, site: publicUrl(), memorials: await listRecentPublicMemorials(4) });
  const [counts, pendingTributes, recent, highlights, feedbackDue] = await Promise.all([
    countOwnMemorials(user.id),
    countPendingForOwner(user.id),
    listRecentOwnMemorials(user.id),
    listRecentPublicMemorials(DASHBOARD_HIGHLIGHTS),
    isFeedbackPopupDue(user),
  ]);
  // Without JavaScript the popup moves between questions by GET; a question skipped past is a 400.
  const feedback = feedbackDue ? feedbackViewFrom(new URL(request.url).searchParams) : null;
  return data(
    { kind: "dashboard" as const, firstName: user.firstName, counts: { ...counts, pendingTributes }, recent, highlights, feedback },
    { status: feedback?.error ? 400 : 200 },
  );
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  const intent = form.get("intent");
  // `replace`: a redirect that, after the dialog's fetcher post, adds no history entry.
  if (intent === "feedback-skip") {
    await recordPopupSkip(user.id, UX_FEEDBACK);
    return replace("/", { status: 303 });
  }
  if (intent !== "feedback-submit") throw data({ message: "Unknown action" }, { status: 400 });
  const answers = readDraftAnswers(form);
  const parsed = uxFeedbackAnswersSchema.safeParse(answers);
  if (!parsed.success) {
    const blocked = firstUnanswered(answers) ?? { step: FEEDBACK_QUESTIONS.length - 1, error: FEEDBACK_MESSAGES.suggestions };
    return data({ feedback: { step: blocked.step, answers, error: blocked.error } }, { status: 400 });
  }
  // The feedback is posted, then the popup marked complete. A second submission saves nothing new.
  await saveFeedback(user.id, parsed.data);
  await recordPopupComplete(user.id, UX_FEEDBACK);
  return replace("/", {
    status: 303,
    headers: await withToast({ type: "success", title: FEEDBACK_MESSAGES.thanks, description: FEEDBACK_MESSAGES.thanksText }),
  });
}

export default function HomePage({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.kind === "landing") return <LandingPage memorials={loaderData.memorials} />;
  return <Dashboard {...loaderData} feedback={actionData?.feedback ?? loaderData.feedback} />;
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData?.kind === "dashboard"
    ? [{ title: `Dashboard · ${SITE_NAME}` }]
    : [
        { title: LANDING_TITLE },
        { name: "description", content: LANDING_DESCRIPTION },
        ...(loaderData?.kind === "landing" ? siteSocialMeta(loaderData.site, { title: LANDING_TITLE, description: LANDING_DESCRIPTION }) : []),
      ];

const LANDING_TITLE = `${SITE_NAME} · Preserve Digital Legacies That Last Forever`;
const LANDING_DESCRIPTION =
  "Honor and remember the people you love with a lasting online memorial. Preserve their story, photographs and tributes, securely and privately, for generations to come.";
