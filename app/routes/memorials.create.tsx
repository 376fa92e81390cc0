import { useEffect } from "react";
import { useNavigate } from "react-router";
import type { Route } from "./+types/memorials.create";
import { ButtonLinks } from "~/components/button-links";
import { MemorialForm } from "~/components/memorial/memorial-form";
import { hasReachedMemorialLimit } from "~/models/memorials/records.server";
import { requireUser } from "~/request/auth.server";
import { submitMemorialForm, uploadRules } from "~/routes/memorial-form.server";
import { LIMIT_REDIRECT_DELAY_MS, MEMORIAL_LIMIT_MESSAGE, MEMORIAL_LIMIT_TITLE, PLANS_HREF } from "~/utils/plans";
import { MEDIA_LIMITS, type RequestBodyHandle } from "~/utils/upload-limits";
import type { KeptPageHandle } from "~/utils/kept-pages";

// Create Memorial. The form lives in app/components/memorial/memorial-form.tsx, its request half in
// app/routes/memorial-form.server.ts and the saving of fields and files in
// app/models/memorials/memorial-saving.server.ts, all shared with Edit Memorial.

// One post carries the photos and videos: the server lets this route read that much, after requireUser.
export const handle: RequestBodyHandle & KeptPageHandle = { body: { maxBytes: MEDIA_LIMITS.requestBytes }, kept: { members: "any" } };

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  // A member at the free limit is told before filling in the form, not after.
  if (await hasReachedMemorialLimit(user)) return { limitReached: true as const };
  // The account's default visibility preselects the radio group.
  return { limitReached: false as const, defaultVisibility: user.defaultVisibility, rules: uploadRules() };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  return submitMemorialForm(request, user, null);
}

export default function CreateMemorial({ loaderData, actionData }: Route.ComponentProps) {
  const navigate = useNavigate();
  const limitReached = actionData?.alert?.kind === "limit";
  // When the free limit is hit on saving (another tab got there first), the member goes to the
  // plans after 2 seconds (with JavaScript; without, the alert's "See plans" link does the same).
  useEffect(() => {
    if (!limitReached) return;
    const timer = setTimeout(() => navigate(PLANS_HREF), LIMIT_REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [limitReached, actionData, navigate]);
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-bold text-stone-900">Create Memorial</h1>
      {loaderData.limitReached ? (
        <LimitReached />
      ) : (
        <>
          <p className="mt-2 text-stone-700">Honor a life with their story, photos and videos. You can save a draft and publish it later.</p>
          <div className="mt-8">
            <MemorialForm
              mode="create"
              rules={loaderData.rules}
              failure={actionData}
              defaultValue={{
                firstName: "",
                lastName: "",
                title: "",
                dateOfBirth: "",
                dateOfPassing: "",
                biography: "",
                visibility: loaderData.defaultVisibility,
                category: "individual",
              }}
            />
          </div>
        </>
      )}
    </div>
  );
}

/** Instead of a form that could not be saved: what the limit is, and the ways on. */
function LimitReached() {
  return (
    <section aria-labelledby="limit-heading" className="mt-6 rounded-lg border border-amber-300 bg-amber-50 p-6">
      <h2 id="limit-heading" className="text-xl font-semibold text-amber-950">
        {MEMORIAL_LIMIT_TITLE}
      </h2>
      <p className="mt-2 text-amber-950">{MEMORIAL_LIMIT_MESSAGE}</p>
      <p className="mt-2 text-amber-950">Your memorials are all still there: you can edit them, or delete one to make room.</p>
      <ButtonLinks
        className="mt-5"
        links={[
          { to: PLANS_HREF, label: "See plans" },
          { to: "/my-memorials", label: "Go to My Memorials" },
        ]}
      />
    </section>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Create Memorial · Everlight" }];
