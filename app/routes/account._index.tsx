import { getFormProps, getTextareaProps, type SubmissionResult } from "@conform-to/react";
import { parseForm } from "~/request/form.server";
import { useEffect, useRef, useState } from "react";
import { data, Form, useNavigation } from "react-router";
import { z } from "~/utils/validation/zod";
import type { Route } from "./+types/account._index";
import { ErrorList, Field, FormAlert, useHydrated } from "~/components/forms";
import { NameFields } from "~/components/name-fields";
import { useSchemaForm } from "~/components/schema-form";
import { removeProfilePicture, setProfilePicture } from "~/models/accounts/profile-picture.server";
import { updateProfile } from "~/models/accounts/users.server";
import { requireUser } from "~/request/auth.server";
import { readImageUploadForm } from "~/request/multipart.server";
import { redirectWithToast } from "~/request/toast.server";
import { IMAGE_REJECTIONS, ImageRejectedError } from "~/services/images.server";
import { describeBytes, MAX_IMAGE_BYTES, MAX_IMAGE_UPLOAD_BYTES, type RequestBodyHandle } from "~/utils/upload-limits";
import { BIO_MAX, profileSchema } from "~/utils/validation/account";
import type { KeptPageHandle } from "~/utils/kept-pages";

// Profile tab. Three forms on
// one page, told apart by `intent`: the details, a picture upload (multipart) and removing the picture.

const actionSchema = z.discriminatedUnion("intent", [
  profileSchema.extend({ intent: z.literal("profile") }),
  z.object({ intent: z.literal("picture"), profileImage: z.instanceof(File, { error: "Choose an image to upload" }) }),
  z.object({ intent: z.literal("remove-picture") }),
]);

type ActionData = { form: "profile"; result: SubmissionResult<string[]> } | { form: "picture"; pictureError: string };

const PROFILE_FAILED = "Failed to update profile. Please try again.";
const PICTURE_FAILED = "Failed to update profile picture. Please try again.";

// The picture form carries one image: the server lets this route read that much, after requireUser.
export const handle: RequestBodyHandle & KeptPageHandle = { body: { maxBytes: MAX_IMAGE_UPLOAD_BYTES }, kept: { members: "any" } };

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const { firstName, lastName, bio, email, profileImageUrl } = user;
  // The size limit and its message travel to the page so that, with JavaScript, a too-large file is
  // refused before it is uploaded at all.
  return { profile: { firstName, lastName, bio, email, profileImageUrl }, upload: { maxBytes: MAX_IMAGE_BYTES, tooLarge: IMAGE_REJECTIONS.size.message } };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  let formData: FormData;
  if (request.headers.get("Content-Type")?.startsWith("multipart/form-data")) {
    // Only the picture form is multipart: its size is checked before anything is buffered.
    try {
      formData = await readImageUploadForm(request);
    } catch (error) {
      if (error instanceof ImageRejectedError) return pictureFailure(error.message, error.status);
      throw error;
    }
  } else {
    formData = await request.formData();
  }

  const submission = parseForm(formData, { schema: actionSchema });
  if (submission.status !== "success") {
    if (formData.get("intent") === "picture") return pictureFailure(submission.error?.profileImage?.[0] ?? PICTURE_FAILED, 400);
    return data<ActionData>({ form: "profile", result: submission.reply() }, { status: 400 });
  }

  const value = submission.value;
  if (value.intent === "profile") {
    try {
      await updateProfile(user.id, { firstName: value.firstName, lastName: value.lastName, bio: value.bio });
    } catch (error) {
      console.error("Profile update failed:", error);
      return data<ActionData>({ form: "profile", result: submission.reply({ formErrors: [PROFILE_FAILED] }) }, { status: 500 });
    }
    return redirectWithToast("/account", { type: "success", title: "Profile updated", description: "Your details have been saved." });
  }
  if (value.intent === "picture") {
    try {
      await setProfilePicture(user.id, new Uint8Array(await value.profileImage.arrayBuffer()));
    } catch (error) {
      if (error instanceof ImageRejectedError) return pictureFailure(error.message, error.status);
      console.error("Profile picture update failed:", error);
      return pictureFailure(PICTURE_FAILED, 500);
    }
    return redirectWithToast("/account", { type: "success", title: "Profile picture updated" });
  }
  await removeProfilePicture(user.id);
  return redirectWithToast("/account", { type: "success", title: "Profile picture removed" });
}

function pictureFailure(message: string, status: number) {
  return data<ActionData>({ form: "picture", pictureError: message }, { status });
}

export default function ProfileTab({ loaderData, actionData }: Route.ComponentProps) {
  const { profile, upload } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  return (
    <div className="space-y-10">
      <div>
        <h2 className="text-xl font-semibold text-stone-900">Profile</h2>
        <p className="mt-1 text-stone-700">How you appear to other members and on the memorials you create.</p>
      </div>
      <section className="space-y-4">
        <h3 className="text-lg font-semibold text-stone-900">Your picture</h3>
        <div className="flex flex-wrap items-start gap-6">
          <Avatar url={profile.profileImageUrl} initials={`${profile.firstName.charAt(0)}${profile.lastName.charAt(0)}`.toUpperCase()} />
          <div className="min-w-64 flex-1 space-y-3">
            <PictureForm
              key={profile.profileImageUrl ?? "none"}
              serverError={actionData?.form === "picture" ? actionData.pictureError : undefined}
              upload={upload}
              busy={busy === "picture"}
            />
            {profile.profileImageUrl ? (
              <Form method="post">
                <input type="hidden" name="intent" value="remove-picture" />
                <button type="submit" className="btn-secondary" disabled={busy === "remove-picture"}>
                  {busy === "remove-picture" ? "Removing..." : "Remove picture"}
                </button>
              </Form>
            ) : null}
          </div>
        </div>
      </section>
      <section className="space-y-4">
        <h3 className="text-lg font-semibold text-stone-900">Your details</h3>
        <ProfileForm profile={profile} lastResult={actionData?.form === "profile" ? actionData.result : undefined} busy={busy === "profile"} />
      </section>
    </div>
  );
}

type Profile = Route.ComponentProps["loaderData"]["profile"];

function ProfileForm({ profile, lastResult, busy }: { profile: Profile; lastResult?: SubmissionResult<string[]>; busy: boolean }) {
  const hydrated = useHydrated();
  const bioRef = useRef<HTMLTextAreaElement>(null);
  const [bioLength, setBioLength] = useState(0);
  const [form, fields] = useSchemaForm(profileSchema, {
    id: "profile",
    lastResult,
    defaultValue: { firstName: profile.firstName, lastName: profile.lastName, bio: profile.bio ?? "" },
  });
  // Whatever the textarea holds once hydrated (the saved bio, or what was sent back after an error).
  useEffect(() => setBioLength(bioRef.current?.value.length ?? 0), [lastResult]);
  const { key: _key, ...bioProps } = getTextareaProps(fields.bio);
  const bioErrorId = fields.bio.errors?.length ? `${fields.bio.id}-error` : undefined;
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <input type="hidden" name="intent" value="profile" />
      {form.errors?.length ? <FormAlert title="Profile not saved">{form.errors.join(" ")}</FormAlert> : null}
      <NameFields firstName={fields.firstName} lastName={fields.lastName} />
      <Field
        label="Email"
        hint="Email address cannot be changed for security reasons"
        inputProps={{ id: "profile-email", type: "email", value: profile.email, disabled: true, readOnly: true }}
      />
      <div>
        <label htmlFor={fields.bio.id} className="block text-sm font-medium text-stone-800">
          Bio <span className="font-normal text-stone-700">(optional)</span>
        </label>
        <textarea
          {...bioProps}
          ref={bioRef}
          rows={5}
          onChange={(e) => setBioLength(e.currentTarget.value.length)}
          aria-invalid={bioErrorId ? true : undefined}
          aria-describedby={[bioErrorId, `${fields.bio.id}-hint`].filter(Boolean).join(" ")}
          className={`mt-1 block w-full rounded-md border px-3 py-2 text-stone-900 shadow-sm ${bioErrorId ? "border-red-600" : "border-stone-400"}`}
        />
        <p id={`${fields.bio.id}-hint`} className="mt-1 text-sm text-stone-700">
          {hydrated ? `${bioLength} of ${BIO_MAX} characters` : `Up to ${BIO_MAX} characters.`}
        </p>
        <ErrorList id={bioErrorId} errors={fields.bio.errors} />
      </div>
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? "Saving..." : "Save changes"}
      </button>
    </Form>
  );
}

function PictureForm({ serverError, upload, busy }: { serverError?: string; upload: { maxBytes: number; tooLarge: string }; busy: boolean }) {
  // With JavaScript a file over the limit is refused at once; `undefined` means "no file picked since
  // the last answer", so the server's message (if any) shows until the visitor picks another file.
  const [localError, setLocalError] = useState<string | null | undefined>(undefined);
  useEffect(() => setLocalError(undefined), [serverError]);
  const error = localError === undefined ? serverError : localError;
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      className="space-y-3"
      onSubmit={(event) => {
        if (localError) event.preventDefault();
      }}
    >
      <input type="hidden" name="intent" value="picture" />
      <Field
        label="Profile picture"
        hint={`JPEG, PNG, GIF or WebP, up to ${describeBytes(MAX_IMAGE_BYTES)}`}
        errors={error ? [error] : undefined}
        inputProps={{
          id: "profile-image",
          type: "file",
          name: "profileImage",
          accept: "image/*",
          required: true,
          onChange: (event) => {
            const file = event.currentTarget.files?.[0];
            setLocalError(file && file.size > upload.maxBytes ? upload.tooLarge : null);
          },
        }}
      />
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? "Uploading..." : "Upload"}
      </button>
    </Form>
  );
}

function Avatar({ url, initials }: { url: string | null; initials: string }) {
  // eslint-disable-next-line jsx-a11y/img-redundant-alt -- "profile picture" names which picture this is
  if (url) return <img src={url} alt="Your profile picture" width={96} height={96} className="h-24 w-24 rounded-full object-cover ring-1 ring-stone-200" />;
  return (
    <div className="flex flex-col items-center gap-1">
      <span aria-hidden="true" className="flex h-24 w-24 items-center justify-center rounded-full bg-heather-100 text-2xl font-bold text-heather-800">
        {initials}
      </span>
      <span className="text-sm text-stone-700">No picture yet</span>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Profile · Account Settings · Everlight" }];
