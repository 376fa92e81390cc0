import { useEffect } from "react";
import { useNavigate } from "react-router";
import type { Route } from "./+types/memorials.create";
import { MemorialForm } from "~/components/memorial/memorial-form";
import { submitMemorialForm, uploadRules } from "~/models/memorial-form.server";
import { requireUser } from "~/services/auth.server";
import { LIMIT_REDIRECT_DELAY_MS } from "~/utils/plans";
import { MEDIA_LIMITS, type RequestBodyHandle } from "~/utils/upload-limits";

// Create Memorial (memorial-core.md §2, §4 "Create flow", §8). The form, its checks and the saving of
// files live in app/components/memorial/memorial-form.tsx and app/models/memorial-form.server.ts,
// shared with Edit Memorial.

// One post carries the photos and videos: the server lets this route read that much, after requireUser.
export const handle: RequestBodyHandle = { body: { maxBytes: MEDIA_LIMITS.requestBytes } };

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  // The account's default visibility preselects the radio group (commerce-and-accounts.md "Privacy").
  return { defaultVisibility: user.defaultVisibility, rules: uploadRules() };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  return submitMemorialForm(request, user, null);
}

export default function CreateMemorial({ loaderData, actionData }: Route.ComponentProps) {
  const navigate = useNavigate();
  const limitReached = actionData?.alert?.kind === "limit";
  // §4: when the free limit is hit the user goes to /subscription after 2 seconds (with JavaScript;
  // without, the alert's "See plans" link does the same).
  useEffect(() => {
    if (!limitReached) return;
    const timer = setTimeout(() => navigate("/subscription"), LIMIT_REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [limitReached, actionData, navigate]);
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="font-serif text-3xl font-bold text-slate-900">Create Memorial</h1>
      <p className="mt-2 text-slate-700">Honour a life with their story, photos and videos. You can save a draft and publish it later.</p>
      <div className="mt-8">
        <MemorialForm
          mode="create"
          rules={loaderData.rules}
          failure={actionData}
          defaultValue={{ firstName: "", lastName: "", title: "", dateOfBirth: "", dateOfPassing: "", biography: "", visibility: loaderData.defaultVisibility, category: "individual" }}
        />
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Create Memorial · Everlight" }];
