import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult } from "@conform-to/react";
import { useEffect, useRef, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { ErrorList, Field, FormAlert, useHydrated } from "~/components/forms";
import { AiBiography, AiTribute, type AiFormState } from "~/components/memorial/ai-biography";
import { useSchemaForm } from "~/components/schema-form";
import { PLANS_HREF } from "~/utils/plans";
import { withThousands } from "~/utils/text";
import { VISIBILITIES, VISIBILITY_HINTS, VISIBILITY_LABELS } from "~/utils/validation/account";
import { CATEGORY_LABELS, MEMORIAL_LIMITS, memorialFormSchema } from "~/utils/validation/memorial";
import { CO_MANAGER_MESSAGES } from "~/utils/co-managers";

// The Create Memorial and Edit Memorial form. Without JavaScript it is one plain
// multipart form: fields, a profile photo and several photos or videos, saved with one button. With
// JavaScript it adds inline validation, previews of the chosen files (with Remove, Add More Files and
// Remove All, kept in a DataTransfer so the post sends exactly what is shown), checks of sizes and
// types before uploading, and a live character count for the biography.

/** Limits and messages from the server (app/routes/memorial-form.server.ts), so there is one source. */
export type UploadRules = {
  imageBytes: number;
  videoBytes: number;
  requestBytes: number;
  filesPerMemorial: number;
  imageTypes: string[];
  videoTypes: string[];
  messages: { type: string; portraitType: string; imageSize: string; videoSize: string; tooMany: string; requestTooLarge: string };
};

export type MemorialFormValues = {
  firstName: string;
  lastName: string;
  title: string;
  dateOfBirth: string;
  dateOfPassing: string;
  biography: string;
  visibility: (typeof VISIBILITIES)[number];
  category: keyof typeof CATEGORY_LABELS;
};

const CATEGORY_HINTS: Record<keyof typeof CATEGORY_LABELS, string> = {
  individual: "A person.",
  organization: "A group, club, regiment, school or company remembered together.",
};

/** The action's answer when nothing was saved. */
export type MemorialFormFailure = {
  result?: SubmissionResult<string[]>;
  /** Messages about the files, naming each refused file. */
  files: { profileImage?: string[]; media?: string[] };
  /** Which file inputs had files: browsers cannot put them back after a full page load. */
  chosen: { profileImage: boolean; media: boolean };
  alert?: { title: string; message: string; kind?: "limit" };
  removePortrait: boolean;
  /** Without JavaScript: what "Generate AI Biography" or "Generate AI Tribute" wrote, or why not. */
  ai?: AiFormState | null;
};

export const CHOOSE_AGAIN = "Please choose your photos again";

type Props = {
  mode: "create" | "edit";
  defaultValue: MemorialFormValues;
  failure?: MemorialFormFailure;
  rules: UploadRules;
  /** Edit: the current profile photo. */
  portrait?: { src: string; srcSet?: string } | null;
  /** Edit: how many photos and videos the memorial already holds (for the per-memorial limit). */
  existingMediaCount?: number;
  /** Edit: the current photos and videos, shown above the input that adds more. */
  mediaGallery?: React.ReactNode;
  /** Edit: whether the memorial is published now, so Save Draft says that it takes it offline. */
  published?: boolean;
  /** An editor (co-manager): visibility and publishing stay as they are, one Save button. */
  contentOnly?: boolean;
};

export function MemorialForm({
  mode,
  defaultValue,
  failure,
  rules,
  portrait,
  existingMediaCount = 0,
  mediaGallery,
  published = false,
  contentOnly = false,
}: Props) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const [form, fields] = useSchemaForm(memorialFormSchema, { id: "memorial", lastResult: failure?.result, defaultValue });
  const formProps = getFormProps(form);
  // With JavaScript the page does not reload after a refusal: bring its summary (or the limit) into view.
  const alertRef = useRef<HTMLDivElement>(null);
  const seenFailure = useRef(failure);
  useEffect(() => {
    if (seenFailure.current === failure) return;
    seenFailure.current = failure;
    if (failure?.alert) alertRef.current?.focus();
  }, [failure]);
  const idFor = (name: string) =>
    name === "profileImage" || name === "media" ? name : ((fields as unknown as Record<string, { id: string } | undefined>)[name]?.id ?? name);
  const fieldErrors = Object.entries(failure?.result?.error ?? {}).filter(([name, errors]) => name !== "" && errors?.length);
  const fileErrors = Object.entries(failure?.files ?? {}).filter(([, errors]) => errors?.length);
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      {...formProps}
      onSubmit={(event) => {
        // Files refused in the browser (too large, wrong type) are not worth uploading first.
        const refused = event.currentTarget.querySelector<HTMLElement>("[data-client-file-error]");
        if (refused) {
          event.preventDefault();
          document.getElementById(refused.dataset.clientFileError!)?.focus();
          return;
        }
        formProps.onSubmit(event);
      }}
      className="space-y-10"
    >
      <p className="text-sm text-stone-700">Fields marked with an asterisk (*) are required.</p>
      {failure?.alert ? (
        <div ref={alertRef} tabIndex={-1}>
          <FormAlert title={failure.alert.title} id="memorial-form-alert">
            <p>{failure.alert.message}</p>
            {failure.alert.kind === "limit" ? (
              <p className="mt-1">
                <Link to={PLANS_HREF} className="font-semibold text-red-900 underline">
                  See plans
                </Link>
              </p>
            ) : null}
          </FormAlert>
        </div>
      ) : fieldErrors.length || fileErrors.length ? (
        // After a full page load the errors may be far down: list them first, each a link to its field.
        <FormAlert title="Please correct the following" id="memorial-form-alert">
          <ul className="mt-1 list-disc space-y-0.5 pl-5">
            {[...fieldErrors, ...fileErrors].flatMap(([name, errors]) =>
              (errors ?? []).map((message) => (
                <li key={`${name}-${message}`}>
                  <a href={`#${idFor(name)}`} className="text-red-900 underline">
                    {message}
                  </a>
                </li>
              )),
            )}
          </ul>
        </FormAlert>
      ) : null}

      <section aria-labelledby="basic-heading" className="space-y-4">
        <h2 id="basic-heading" className="text-xl font-semibold text-stone-900">
          Basic Information
        </h2>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label={<Required>First name</Required>}
            errors={fields.firstName.errors}
            inputProps={{ ...getInputProps(fields.firstName, { type: "text" }), autoComplete: "off" }}
          />
          <Field
            label={<Required>Last name</Required>}
            errors={fields.lastName.errors}
            inputProps={{ ...getInputProps(fields.lastName, { type: "text" }), autoComplete: "off" }}
          />
        </div>
        <Field
          label={
            <>
              Title <span className="font-normal text-stone-700">(optional)</span>
            </>
          }
          hint="Leave empty to use the full name"
          errors={fields.title.errors}
          inputProps={getInputProps(fields.title, { type: "text" })}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Date of birth" errors={fields.dateOfBirth.errors} inputProps={getInputProps(fields.dateOfBirth, { type: "date" })} />
          <Field label="Date of passing" errors={fields.dateOfPassing.errors} inputProps={getInputProps(fields.dateOfPassing, { type: "date" })} />
        </div>
        {contentOnly ? (
          <p className="text-sm text-stone-700">
            <input type="hidden" name={fields.visibility.name} value={defaultValue.visibility} />
            Visibility: {VISIBILITY_LABELS[defaultValue.visibility]}. {CO_MANAGER_MESSAGES.editorVisibility}
          </p>
        ) : (
          <fieldset aria-describedby={fields.visibility.errors?.length ? `${fields.visibility.id}-error` : undefined}>
            <legend className="text-sm font-medium text-stone-800">Visibility</legend>
            <div className="mt-2 space-y-2">
              {VISIBILITIES.map((value) => {
                const id = `${fields.visibility.id}-${value}`;
                return (
                  <div key={value} className="flex items-start gap-3">
                    <input
                      type="radio"
                      id={id}
                      name={fields.visibility.name}
                      value={value}
                      defaultChecked={(fields.visibility.initialValue ?? defaultValue.visibility) === value}
                      aria-describedby={`${id}-hint`}
                      className="mt-1 h-4 w-4 accent-heather-700"
                    />
                    <div>
                      <label htmlFor={id} className="text-sm font-medium text-stone-900">
                        {VISIBILITY_LABELS[value]}
                      </label>
                      <p id={`${id}-hint`} className="text-sm text-stone-700">
                        {VISIBILITY_HINTS[value]}
                      </p>
                    </div>
                  </div>
                );
              })}
            </div>
            <ErrorList id={`${fields.visibility.id}-error`} errors={fields.visibility.errors} />
          </fieldset>
        )}
        {/* The browse page filters by category. */}
        <fieldset aria-describedby={fields.category.errors?.length ? `${fields.category.id}-error` : undefined}>
          <legend className="text-sm font-medium text-stone-800">Category</legend>
          <div className="mt-2 space-y-2">
            {(Object.keys(CATEGORY_LABELS) as (keyof typeof CATEGORY_LABELS)[]).map((value) => {
              const id = `${fields.category.id}-${value}`;
              return (
                <div key={value} className="flex items-start gap-3">
                  <input
                    type="radio"
                    id={id}
                    name={fields.category.name}
                    value={value}
                    defaultChecked={(fields.category.initialValue ?? defaultValue.category) === value}
                    aria-describedby={`${id}-hint`}
                    className="mt-1 h-4 w-4 accent-heather-700"
                  />
                  <div>
                    <label htmlFor={id} className="text-sm font-medium text-stone-900">
                      {CATEGORY_LABELS[value]}
                    </label>
                    <p id={`${id}-hint`} className="text-sm text-stone-700">
                      {CATEGORY_HINTS[value]}
                    </p>
                  </div>
                </div>
              );
            })}
          </div>
          <ErrorList id={`${fields.category.id}-error`} errors={fields.category.errors} />
        </fieldset>
      </section>

      <section aria-labelledby="photo-heading" className="space-y-4">
        <h2 id="photo-heading" className="text-xl font-semibold text-stone-900">
          Profile Photo
        </h2>
        {portrait ? (
          <div className="flex flex-wrap items-center gap-4">
            {/* "Profile photo" names which picture this is, not that it is one. */}
            {/* eslint-disable-next-line jsx-a11y/img-redundant-alt */}
            <img
              src={portrait.src}
              srcSet={portrait.srcSet}
              sizes="96px"
              alt="Current profile photo"
              width={96}
              height={96}
              className="with-fallback h-24 w-24 rounded-full object-cover ring-1 ring-stone-200"
            />
            <div className="flex items-center gap-2">
              <input
                type="checkbox"
                id="removeProfileImage"
                name="removeProfileImage"
                defaultChecked={failure?.removePortrait}
                className="h-4 w-4 accent-heather-700"
              />
              <label htmlFor="removeProfileImage" className="text-sm font-medium text-stone-900">
                Remove photo
              </label>
            </div>
          </div>
        ) : null}
        <PortraitPicker
          rules={rules}
          label={portrait ? "New profile photo" : "Profile photo"}
          serverErrors={failure?.files.profileImage}
          chooseAgain={!!failure?.chosen.profileImage}
        />
      </section>

      <section aria-labelledby="media-heading" className="space-y-4">
        <h2 id="media-heading" className="text-xl font-semibold text-stone-900">
          Photos &amp; Videos
        </h2>
        {mediaGallery}
        <MediaPicker rules={rules} existingCount={existingMediaCount} serverErrors={failure?.files.media} chooseAgain={!!failure?.chosen.media} />
      </section>

      <section aria-labelledby="biography-heading" className="space-y-2">
        <h2 id="biography-heading" className="text-xl font-semibold text-stone-900">
          Biography
        </h2>
        <BiographyField field={fields.biography} lastResult={failure?.result} tools={<AiBiography state={failure?.ai} />} />
        {/* Edit Memorial only: a short tribute from the names and key details. */}
        {mode === "edit" ? <AiTribute state={failure?.ai} /> : null}
      </section>

      <div className="flex flex-wrap justify-end gap-3 border-t border-stone-200 pt-6">
        {/* Save Draft unpublishes: on a published memorial the button says so. */}
        {contentOnly ? (
          <button type="submit" name="intent" value={published ? "publish" : "draft"} className="btn-primary" disabled={!!busy}>
            {busy ? "Saving..." : "Save changes"}
          </button>
        ) : (
          <>
            <button type="submit" name="intent" value="draft" className="btn-secondary" disabled={!!busy}>
              {busy === "draft" ? "Saving..." : published ? "Unpublish and save as draft" : "Save Draft"}
            </button>
            <button type="submit" name="intent" value="publish" className="btn-primary" disabled={!!busy}>
              {busy === "publish" ? (mode === "create" ? "Publishing..." : "Updating...") : mode === "create" ? "Publish Memorial" : "Update Memorial"}
            </button>
          </>
        )}
      </div>
    </Form>
  );
}

function Required({ children }: { children: React.ReactNode }) {
  // The asterisk is for the eye; the input's `required` tells a screen reader the same.
  return (
    <>
      {children}{" "}
      <span aria-hidden="true" className="text-red-700">
        *
      </span>
    </>
  );
}

type TextareaField = Parameters<typeof getTextareaProps>[0];

function BiographyField({ field, lastResult, tools }: { field: TextareaField; lastResult?: SubmissionResult<string[]>; tools?: React.ReactNode }) {
  const hydrated = useHydrated();
  const ref = useRef<HTMLTextAreaElement>(null);
  const [length, setLength] = useState(0);
  // Whatever the textarea holds once hydrated (the saved text, or what came back after an error).
  useEffect(() => setLength(ref.current?.value.length ?? 0), [lastResult]);
  const { key: _key, ...props } = getTextareaProps(field);
  const errorId = field.errors?.length ? `${field.id}-error` : undefined;
  const limit = withThousands(MEMORIAL_LIMITS.biography);
  return (
    <div>
      <label htmlFor={field.id} className="block text-sm font-medium text-stone-800">
        Life story
      </label>
      {/* "Generate AI Biography": a dialog with JavaScript, part of this form without. */}
      {tools ? <div className="mt-2">{tools}</div> : null}
      <textarea
        {...props}
        ref={ref}
        rows={10}
        onChange={(e) => setLength(e.currentTarget.value.length)}
        aria-invalid={errorId ? true : undefined}
        aria-describedby={[errorId, `${field.id}-hint`].filter(Boolean).join(" ")}
        className={`mt-1 block w-full rounded-md border px-3 py-2 text-stone-900 shadow-sm ${errorId ? "border-red-600" : "border-stone-400"}`}
      />
      <p id={`${field.id}-hint`} className="mt-1 text-sm text-stone-700">
        {hydrated ? `${withThousands(length)} of ${limit} characters` : `Up to ${limit} characters.`}
      </p>
      <ErrorList id={errorId} errors={field.errors} />
    </div>
  );
}

/** The browser-side check of one file, by its declared type (the server checks the bytes). */
function checkInBrowser(file: File, rules: UploadRules, imagesOnly: boolean): string | null {
  const isVideo = rules.videoTypes.includes(file.type);
  const isImage = rules.imageTypes.includes(file.type);
  // An unknown declared type is left to the server, which looks at the content.
  if (file.type && !isImage && !(isVideo && !imagesOnly)) return `${file.name}: ${imagesOnly ? rules.messages.portraitType : rules.messages.type}`;
  if (isVideo && file.size > rules.videoBytes) return `${file.name}: ${rules.messages.videoSize}`;
  if (!isVideo && file.size > rules.imageBytes) return `${file.name}: ${rules.messages.imageSize}`;
  return null;
}

function formatSize(bytes: number) {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** Server messages show until the visitor changes that input; "choose again" only while it is empty. */
function fileMessages(serverErrors: string[] | undefined, chooseAgain: boolean, count: number, changed: boolean) {
  const errors = changed ? [] : (serverErrors ?? []);
  return [...new Set(count === 0 && chooseAgain && !changed ? [...errors, CHOOSE_AGAIN] : errors)];
}

function PortraitPicker({ rules, label, serverErrors, chooseAgain }: { rules: UploadRules; label: string; serverErrors?: string[]; chooseAgain: boolean }) {
  const hydrated = useHydrated();
  const input = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<{ file: File; url: string } | null>(null);
  const [changed, setChanged] = useState(false);
  useEffect(() => setChanged(false), [serverErrors]);
  useEffect(() => () => (chosen ? URL.revokeObjectURL(chosen.url) : undefined), [chosen]);
  const clientError = chosen ? checkInBrowser(chosen.file, rules, true) : null;
  const messages = [...new Set([...(clientError ? [clientError] : []), ...fileMessages(serverErrors, chooseAgain, chosen ? 1 : 0, changed)])];
  const id = "profileImage";
  const errorId = messages.length ? `${id}-error` : undefined;
  return (
    <div>
      <label htmlFor={id} className={chosen && hydrated ? "sr-only" : "block text-sm font-medium text-stone-800"}>
        {label}
      </label>
      <input
        ref={input}
        id={id}
        type="file"
        name="profileImage"
        accept="image/*"
        tabIndex={chosen ? -1 : undefined}
        aria-invalid={errorId ? true : undefined}
        aria-describedby={[errorId, `${id}-hint`].filter(Boolean).join(" ")}
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          setChanged(true);
          setChosen(file ? { file, url: URL.createObjectURL(file) } : null);
        }}
        className={
          chosen
            ? "sr-only"
            : "mt-1 block w-full text-sm text-stone-800 file:mr-3 file:rounded-md file:border file:border-stone-300 file:bg-white file:px-3 file:py-1.5 file:font-semibold file:text-stone-800"
        }
      />
      {chosen ? (
        <div className="flex flex-wrap items-center gap-4">
          {/* eslint-disable-next-line jsx-a11y/img-redundant-alt -- "profile photo" names which picture this is */}
          <img
            src={chosen.url}
            alt="Preview of the chosen profile photo"
            width={96}
            height={96}
            className="h-24 w-24 rounded-full object-cover ring-1 ring-stone-200"
          />
          <div className="space-y-2">
            <p className="text-sm text-stone-800">{chosen.file.name}</p>
            <div className="flex gap-2">
              <button type="button" className="btn-secondary" onClick={() => input.current?.click()}>
                Change Photo
              </button>
              <button
                type="button"
                className="btn-ghost"
                onClick={() => {
                  if (input.current) input.current.value = "";
                  setChosen(null);
                  // The input comes back into view: put the keyboard there rather than on <body>.
                  requestAnimationFrame(() => input.current?.focus());
                }}
              >
                Remove
              </button>
            </div>
          </div>
        </div>
      ) : null}
      <p id={`${id}-hint`} className="mt-1 text-sm text-stone-700">
        A JPEG, PNG, GIF or WebP photo, up to {rules.imageBytes / 1024 / 1024} MB.
      </p>
      {clientError ? <span hidden data-client-file-error={id} /> : null}
      <ErrorList id={errorId} errors={messages} />
    </div>
  );
}

type Chosen = { file: File; url: string | null; key: string };

function MediaPicker({
  rules,
  existingCount,
  serverErrors,
  chooseAgain,
}: {
  rules: UploadRules;
  existingCount: number;
  serverErrors?: string[];
  chooseAgain: boolean;
}) {
  const hydrated = useHydrated();
  const input = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<Chosen[]>([]);
  const [changed, setChanged] = useState(false);
  useEffect(() => setChanged(false), [serverErrors]);
  const urls = useRef(new Set<string>());
  useEffect(() => () => urls.current.forEach((u) => URL.revokeObjectURL(u)), []);

  // What the input will send is exactly the list shown: rebuilt through a DataTransfer on every change.
  function update(next: Chosen[]) {
    for (const item of chosen) if (item.url && !next.includes(item) && urls.current.delete(item.url)) URL.revokeObjectURL(item.url);
    if (input.current) {
      const transfer = new DataTransfer();
      for (const item of next) transfer.items.add(item.file);
      input.current.files = transfer.files;
    }
    setChanged(true);
    setChosen(next);
  }
  function add(files: File[]) {
    const added = files.map((file, i) => {
      const url = file.type.startsWith("image/") ? URL.createObjectURL(file) : null;
      if (url) urls.current.add(url);
      return { file, url, key: `${Date.now()}-${i}-${file.name}` };
    });
    update([...chosen, ...added]);
  }

  const perFile = chosen.map((item) => checkInBrowser(item.file, rules, false));
  const totalBytes = chosen.reduce((sum, item) => sum + item.file.size, 0);
  const listErrors = [
    ...(existingCount + chosen.length > rules.filesPerMemorial ? [rules.messages.tooMany] : []),
    ...(totalBytes > rules.requestBytes ? [rules.messages.requestTooLarge] : []),
  ];
  const clientErrors = [...perFile.filter((e): e is string => !!e), ...listErrors];
  const messages = [...new Set([...clientErrors, ...fileMessages(serverErrors, chooseAgain, chosen.length, changed)])];
  const id = "media";
  const errorId = messages.length ? `${id}-error` : undefined;
  const showList = hydrated && chosen.length > 0;
  return (
    <div>
      <label htmlFor={id} className={showList ? "sr-only" : "block text-sm font-medium text-stone-800"}>
        {existingCount ? "Add photos and videos" : "Photos and videos"}
      </label>
      <input
        ref={input}
        id={id}
        type="file"
        name="media"
        multiple
        accept="image/*,video/*"
        tabIndex={showList ? -1 : undefined}
        aria-invalid={errorId ? true : undefined}
        aria-describedby={[errorId, `${id}-hint`].filter(Boolean).join(" ")}
        onChange={(e) => add(Array.from(e.currentTarget.files ?? []).filter((f) => !chosen.some((c) => c.file === f)))}
        className={
          showList
            ? "sr-only"
            : "mt-1 block w-full text-sm text-stone-800 file:mr-3 file:rounded-md file:border file:border-stone-300 file:bg-white file:px-3 file:py-1.5 file:font-semibold file:text-stone-800"
        }
      />
      <p id={`${id}-hint`} className="mt-1 text-sm text-stone-700">
        Photos: JPEG, PNG, GIF or WebP, up to {rules.imageBytes / 1024 / 1024} MB each. Videos: MP4, WebM or MOV, up to {rules.videoBytes / 1024 / 1024} MB
        each. Up to {rules.filesPerMemorial} files per memorial.
      </p>
      <p aria-live="polite" className="sr-only">
        {hydrated ? `${chosen.length} file${chosen.length === 1 ? "" : "s"} chosen` : ""}
      </p>
      {showList ? (
        <div className="mt-3 space-y-3">
          <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3" aria-label="Files to upload">
            {chosen.map((item, index) => (
              <li key={item.key} className={`rounded-lg border p-2 ${perFile[index] ? "border-red-600" : "border-stone-200"}`}>
                {item.url ? (
                  <img src={item.url} alt="" className="aspect-[4/3] w-full rounded object-cover" />
                ) : (
                  <div className="flex aspect-[4/3] w-full items-center justify-center rounded bg-stone-100 text-stone-700">
                    <VideoIcon />
                  </div>
                )}
                <p className="mt-1 truncate text-sm text-stone-800" title={item.file.name}>
                  {item.file.name}
                </p>
                <p className="text-sm text-stone-700">{formatSize(item.file.size)}</p>
                <button type="button" className="btn-ghost mt-1 px-2 py-1" onClick={() => update(chosen.filter((c) => c !== item))}>
                  Remove<span className="sr-only"> {item.file.name}</span>
                </button>
              </li>
            ))}
          </ul>
          <div className="flex gap-2">
            <button type="button" className="btn-secondary" onClick={() => input.current?.click()}>
              Add More Files
            </button>
            <button type="button" className="btn-ghost" onClick={() => update([])}>
              Remove All
            </button>
          </div>
        </div>
      ) : null}
      {clientErrors.length ? <span hidden data-client-file-error={id} /> : null}
      <ErrorList id={errorId} errors={messages} />
    </div>
  );
}

export function VideoIcon({ className = "h-8 w-8" }: { className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className={className} fill="none" stroke="currentColor" strokeWidth="1.5">
      <rect x="3" y="6" width="13" height="12" rx="2" />
      <path d="m16 10 5-3v10l-5-3z" />
    </svg>
  );
}

export type EditableMedia = { id: string; kind: "image" | "video"; label: string; caption: string | null; src: string; srcSet?: string };
export type DeleteTarget = { item: EditableMedia; trigger: HTMLElement };

/** The edit page's Media Gallery heading: where a deletion comes back to. */
export const MEDIA_GALLERY_HEADING = "media-gallery-heading";

export const mediaDeletePath = (memorialId: string, mediaId: string) => `/memorials/${memorialId}/media/${mediaId}/delete`;

/**
 * Edit: the memorial's photos and videos, each with Delete. Delete is a link to a confirmation page
 * (works without JavaScript); with JavaScript it opens DeleteMediaDialog instead via `onDelete`.
 */
export function MediaGalleryEditor({ memorialId, items, onDelete }: { memorialId: string; items: EditableMedia[]; onDelete: (target: DeleteTarget) => void }) {
  return (
    <div>
      <h3 id={MEDIA_GALLERY_HEADING} tabIndex={-1} className="text-lg font-semibold text-stone-900">
        Media Gallery
      </h3>
      {items.length ? (
        <ul className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4">
          {items.map((item) => (
            <li key={item.id} className="rounded-lg border border-stone-200 p-2">
              {item.kind === "image" ? (
                <img
                  src={item.src}
                  srcSet={item.srcSet}
                  sizes="160px"
                  alt={item.caption || item.label}
                  width={160}
                  height={120}
                  loading="lazy"
                  className="aspect-[4/3] h-auto w-full rounded object-cover"
                />
              ) : (
                <div className="flex aspect-[4/3] w-full flex-col items-center justify-center gap-1 rounded bg-stone-100 text-stone-700">
                  <VideoIcon />
                  <span className="text-sm">{item.label}</span>
                </div>
              )}
              {item.caption ? <p className="mt-1 truncate text-sm text-stone-700">{item.caption}</p> : null}
              <Link
                to={mediaDeletePath(memorialId, item.id)}
                className="btn-ghost mt-1 px-2 py-1 text-red-800 hover:bg-red-50 hover:text-red-900"
                onClick={(event) => {
                  event.preventDefault();
                  onDelete({ item, trigger: event.currentTarget });
                }}
              >
                Delete<span className="sr-only"> {item.label.toLowerCase()}</span>
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-sm text-stone-700">No photos or videos yet.</p>
      )}
    </div>
  );
}

/**
 * The JavaScript confirmation: a native modal <dialog> (focus kept inside by showModal, Escape closes)
 * posting the same form as the confirmation page. Focus goes back to the Delete button, or to the
 * gallery's heading once the item is gone.
 */
export function DeleteMediaDialog({ memorialId, target, onClose }: { memorialId: string; target: DeleteTarget | null; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const navigation = useNavigation();
  const action = target ? mediaDeletePath(memorialId, target.item.id) : null;
  const deleting = !!action && navigation.state !== "idle" && navigation.formAction === action;
  const wasDeleting = useRef(false);
  useEffect(() => {
    if (target && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [target]);
  // Closed once the deletion and the reload of this page behind it are done.
  useEffect(() => {
    if (deleting) wasDeleting.current = true;
    else if (wasDeleting.current) {
      wasDeleting.current = false;
      dialog.current?.close();
    }
  }, [deleting]);
  const noun = target?.item.kind === "video" ? "video" : "photo";
  return (
    <dialog
      ref={dialog}
      aria-labelledby={target ? "delete-media-title" : undefined}
      aria-describedby={target ? "delete-media-text" : undefined}
      onClose={() => {
        const trigger = target?.trigger;
        onClose();
        if (trigger?.isConnected) trigger.focus();
        else document.getElementById(MEDIA_GALLERY_HEADING)?.focus();
      }}
      className="m-auto w-full max-w-md rounded-lg bg-white p-6 text-stone-800 shadow-xl backdrop:bg-stone-900/60"
    >
      {target && action ? (
        <Form method="post" action={action} className="space-y-4">
          <h2 id="delete-media-title" className="text-lg font-semibold text-stone-900">
            Delete this {noun}?
          </h2>
          <p id="delete-media-text" className="text-stone-700">
            {target.item.caption || target.item.label} will be removed from the memorial. This cannot be undone.
          </p>
          <div className="flex justify-end gap-3">
            <button type="button" className="btn-secondary" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
            <button type="submit" className="btn bg-red-700 text-white hover:bg-red-800" disabled={deleting}>
              {deleting ? "Deleting..." : "Delete"}
            </button>
          </div>
        </Form>
      ) : null}
    </dialog>
  );
}
