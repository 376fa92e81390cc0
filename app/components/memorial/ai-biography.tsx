import { useEffect, useRef, useState, type FormEvent } from "react";
import { createPortal } from "react-dom";
import { useFormAction } from "react-router";
import { FormAlert, useHydrated } from "~/components/forms";
import { AI_LIMITS, AI_MESSAGES, aiFailureTitle } from "~/utils/validation/ai-rules";

// "Generate AI Biography" (Create and Edit Memorial) and "Generate AI Tribute" (Edit Memorial),
// Without JavaScript both are part of the memorial form: their buttons
// send it back with intent "ai-biography" or "ai-tribute" (app/routes/memorial-form.server.ts), and the
// page comes back with the text written and everything typed kept; nothing is saved. With JavaScript
// the biography is written from a modal <dialog> through /api/ai/generate-biography straight into the
// Life story box, and the tribute through /api/ai/generate-tribute into the "Suggested tribute" box.

/** What the memorial form's AI intents hand back (JavaScript off). */
export type AiFormState = {
  kind: "biography" | "tribute";
  values: { personalStory: string; keyQualities: string; keyDetails: string };
  /** Why nothing was written: missing names, a limit, the writer failing. */
  failure: { title: string; message: string } | null;
  /** Who wrote the text (the biography now in the Life story box, or the suggested tribute). */
  writtenBy: { provider: string; label: string } | null;
  /** The suggested tribute (kind "tribute"). */
  tribute: string | null;
};

/** The memorial form's id (MemorialForm's useForm id): the dialog reads the names and dates from it. */
const FORM_ID = "memorial";

const BIOGRAPHY_ANCHOR = "ai-biography";
const TRIBUTE_ANCHOR = "ai-tribute";
const OPENER_ID = "ai-biography-open";

const inputClass = "mt-1 block w-full rounded-md border border-stone-400 px-3 py-2 text-stone-900 shadow-sm";

const biographyNote = (label: string) => `${label}. Read it through and change anything before you save.`;

/** The value of one of the memorial form's fields, as it is now. */
function formValue(name: string): string {
  const form = document.getElementById(FORM_ID);
  const field = form instanceof HTMLFormElement ? form.elements.namedItem(name) : null;
  return field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement ? field.value : "";
}

/** An API error's message, or our fixed wording when there is none worth showing. */
async function errorMessage(response: Response | null, fallback: string) {
  if (!response || response.status >= 500) return fallback;
  const body = (await response.json().catch(() => null)) as { message?: string } | null;
  return body?.message || fallback;
}

/** Puts text in a React-managed textarea so that its onChange (the character count) and Conform see it. */
function fillTextarea(box: HTMLTextAreaElement, text: string) {
  Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")?.set?.call(box, text);
  box.dispatchEvent(new Event("input", { bubbles: true }));
  box.dispatchEvent(new Event("change", { bubbles: true }));
}

function WrittenNote({ title, text }: { title: string; text: string }) {
  return (
    <div className="mt-2 rounded-md border border-heather-200 bg-heather-50 px-3 py-2 text-sm text-heather-950">
      <p className="font-semibold">{title}</p>
      <p>{text}</p>
    </div>
  );
}

function BiographyFields({ values }: { values?: AiFormState["values"] }) {
  return (
    <>
      <div>
        <label htmlFor="ai-personal-story" className="block text-sm font-medium text-stone-800">
          Personal story
        </label>
        <p id="ai-personal-story-hint" className="text-sm text-stone-700">
          Where they lived and worked, what they loved, the people and moments that mattered.
        </p>
        <textarea
          id="ai-personal-story"
          name="personalStory"
          rows={5}
          maxLength={AI_LIMITS.text}
          defaultValue={values?.personalStory ?? ""}
          aria-describedby="ai-personal-story-hint"
          className={inputClass}
        />
      </div>
      <div>
        <label htmlFor="ai-key-qualities" className="block text-sm font-medium text-stone-800">
          Key qualities
        </label>
        <p id="ai-key-qualities-hint" className="text-sm text-stone-700">
          A few words, separated by commas, for example: kind, stubborn, funny.
        </p>
        <input
          id="ai-key-qualities"
          name="keyQualities"
          type="text"
          maxLength={AI_LIMITS.text}
          defaultValue={values?.keyQualities ?? ""}
          aria-describedby="ai-key-qualities-hint"
          className={inputClass}
        />
      </div>
    </>
  );
}

const BIOGRAPHY_INTRO =
  "We write a first draft from the names and dates above and what you tell us here, and put it in the Life story box for you to read and change. Nothing is saved until you save the memorial.";

/** Under the Life story label: "Generate AI Biography". */
export function AiBiography({ state }: { state?: AiFormState | null }) {
  const hydrated = useHydrated();
  const ours = state?.kind === "biography" ? state : null;
  const formAction = `${useFormAction()}#${BIOGRAPHY_ANCHOR}`;
  const dialog = useRef<HTMLDialogElement>(null);
  const [failure, setFailure] = useState<AiFormState["failure"]>(ours?.failure ?? null);
  const [busy, setBusy] = useState(false);
  const [written, setWritten] = useState<string | null>(ours?.writtenBy?.label ?? null);
  useEffect(() => setWritten(ours?.writtenBy?.label ?? null), [ours]);

  // A round trip that began before the page was interactive and needs attention: show it in the dialog.
  useEffect(() => {
    if (hydrated && ours?.failure && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [hydrated, ours]);

  async function generate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // The dialog is portalled out of the memorial form in the page, but React still bubbles its submit
    // through the memorial form's handler, which (Conform) throws on a submit from another form. This
    // form's submit is its own business.
    event.stopPropagation();
    const own = new FormData(event.currentTarget);
    const firstName = formValue("firstName").trim();
    const lastName = formValue("lastName").trim();
    if (!firstName || !lastName) return setFailure({ title: AI_MESSAGES.missingNamesTitle, message: AI_MESSAGES.missingNames });
    setFailure(null);
    setBusy(true);
    try {
      const response = await fetch("/api/ai/generate-biography", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({
          firstName,
          lastName,
          dateOfBirth: formValue("dateOfBirth"),
          dateOfPassing: formValue("dateOfPassing"),
          personalStory: String(own.get("personalStory") ?? ""),
          keyQualities: String(own.get("keyQualities") ?? ""),
        }),
      }).catch(() => null);
      const body = response?.ok ? ((await response.json().catch(() => null)) as { biography?: string; providerLabel?: string } | null) : null;
      const box =
        document.getElementById(FORM_ID) instanceof HTMLFormElement
          ? (document.getElementById(FORM_ID) as HTMLFormElement).elements.namedItem("biography")
          : null;
      if (!body?.biography || !(box instanceof HTMLTextAreaElement)) {
        const message = await errorMessage(response?.ok ? null : response, AI_MESSAGES.biographyFailed);
        return setFailure({ title: aiFailureTitle(message), message });
      }
      fillTextarea(box, body.biography);
      setWritten(body.providerLabel ?? "Written by AI from the details you gave");
      dialog.current?.close();
    } finally {
      setBusy(false);
    }
  }

  return (
    <div id={BIOGRAPHY_ANCHOR} className="space-y-2">
      {hydrated ? (
        <>
          <button
            id={OPENER_ID}
            type="button"
            className="btn-secondary"
            onClick={() => {
              setFailure(null);
              dialog.current?.showModal();
            }}
          >
            Generate AI Biography
          </button>
          {createPortal(
            <dialog
              ref={dialog}
              aria-labelledby="ai-biography-title"
              aria-describedby="ai-biography-intro"
              onClose={() => document.getElementById(OPENER_ID)?.focus()}
              className="m-auto w-[calc(100%-2rem)] max-w-lg rounded-lg bg-white p-6 text-stone-800 shadow-xl backdrop:bg-stone-900/60"
            >
              <form id="ai-biography-form" method="post" noValidate onSubmit={generate} className="space-y-4">
                <h2 id="ai-biography-title" className="text-lg font-semibold text-stone-900">
                  Generate AI Biography
                </h2>
                <p id="ai-biography-intro" className="text-sm text-stone-700">
                  {BIOGRAPHY_INTRO}
                </p>
                {failure ? <FormAlert title={failure.title}>{failure.message}</FormAlert> : null}
                <BiographyFields values={ours?.values} />
                <div className="flex justify-end gap-3">
                  <button type="button" className="btn-secondary" onClick={() => dialog.current?.close()}>
                    Cancel
                  </button>
                  <button type="submit" className="btn-primary" disabled={busy}>
                    {busy ? "Generating..." : "Generate"}
                  </button>
                </div>
              </form>
            </dialog>,
            document.body,
          )}
        </>
      ) : (
        // Without JavaScript: part of the memorial form; the button sends it back to be written.
        <details open={!!ours} className="rounded-md border border-stone-300 bg-white p-4">
          <summary className="cursor-pointer font-semibold text-heather-800">Write with AI</summary>
          <div className="mt-3 space-y-4">
            <p className="text-sm text-stone-700">{BIOGRAPHY_INTRO}</p>
            {ours?.failure ? <FormAlert title={ours.failure.title}>{ours.failure.message}</FormAlert> : null}
            <BiographyFields values={ours?.values} />
            <button type="submit" name="intent" value="ai-biography" formNoValidate formAction={formAction} className="btn-secondary">
              Generate AI Biography
            </button>
          </div>
        </details>
      )}
      <div role="status" aria-live="polite" className="empty:hidden">
        {written ? <WrittenNote title={AI_MESSAGES.biographyGenerated} text={biographyNote(written)} /> : null}
      </div>
    </div>
  );
}

/** Edit Memorial: "Generate AI Tribute", a short tribute from the names and key details, to copy or share. */
export function AiTribute({ state }: { state?: AiFormState | null }) {
  const hydrated = useHydrated();
  const ours = state?.kind === "tribute" ? state : null;
  const formAction = `${useFormAction()}#${TRIBUTE_ANCHOR}`;
  const [failure, setFailure] = useState<AiFormState["failure"]>(ours?.failure ?? null);
  const [result, setResult] = useState<{ text: string; label: string } | null>(
    ours?.tribute && ours.writtenBy ? { text: ours.tribute, label: ours.writtenBy.label } : null,
  );
  const [busy, setBusy] = useState(false);
  const keyDetails = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    setFailure(ours?.failure ?? null);
    setResult(ours?.tribute && ours.writtenBy ? { text: ours.tribute, label: ours.writtenBy.label } : null);
  }, [ours]);

  async function generate() {
    const firstName = formValue("firstName").trim();
    const lastName = formValue("lastName").trim();
    if (!firstName || !lastName) return setFailure({ title: AI_MESSAGES.missingNamesTitle, message: AI_MESSAGES.missingTributeNames });
    setFailure(null);
    setBusy(true);
    try {
      const response = await fetch("/api/ai/generate-tribute", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ personalDetails: { firstName, lastName }, keyDetails: keyDetails.current?.value ?? "" }),
      }).catch(() => null);
      const body = response?.ok ? ((await response.json().catch(() => null)) as { tribute?: string; providerLabel?: string } | null) : null;
      if (!body?.tribute) {
        const message = await errorMessage(response?.ok ? null : response, AI_MESSAGES.tributeFailed);
        return setFailure({ title: aiFailureTitle(message), message });
      }
      setResult({ text: body.tribute, label: body.providerLabel ?? "Written by AI from the details you gave" });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section id={TRIBUTE_ANCHOR} aria-labelledby="ai-tribute-heading" className="mt-6 space-y-3 rounded-md border border-stone-300 bg-white p-4">
      <h3 id="ai-tribute-heading" className="font-semibold text-stone-900">
        AI tribute
      </h3>
      <p className="text-sm text-stone-700">
        We write a short tribute from the names above and the key details you give. You can copy it into the life story or share it; it is not saved.
      </p>
      {failure ? <FormAlert title={failure.title}>{failure.message}</FormAlert> : null}
      <div>
        <label htmlFor="ai-key-details" className="block text-sm font-medium text-stone-800">
          Key details
        </label>
        <p id="ai-key-details-hint" className="text-sm text-stone-700">
          What should the tribute say? For example, what they did, loved or will be remembered for.
        </p>
        <textarea
          ref={keyDetails}
          id="ai-key-details"
          name="keyDetails"
          rows={3}
          maxLength={AI_LIMITS.text}
          defaultValue={ours?.values.keyDetails ?? ""}
          aria-describedby="ai-key-details-hint"
          className={inputClass}
        />
      </div>
      {hydrated ? (
        <button type="button" className="btn-secondary" disabled={busy} onClick={generate}>
          {busy ? "Generating..." : "Generate AI Tribute"}
        </button>
      ) : (
        <button type="submit" name="intent" value="ai-tribute" formNoValidate formAction={formAction} className="btn-secondary">
          Generate AI Tribute
        </button>
      )}
      <div role="status" aria-live="polite" className="empty:hidden">
        {result ? <WrittenNote title={AI_MESSAGES.tributeGenerated} text={`${result.label}. Copy it into the life story, or share it, as you wish.`} /> : null}
      </div>
      {result ? (
        <div>
          <label htmlFor="ai-suggested-tribute" className="block text-sm font-medium text-stone-800">
            Suggested tribute
          </label>
          <textarea id="ai-suggested-tribute" readOnly rows={5} value={result.text} className={`${inputClass} bg-stone-50`} />
        </div>
      ) : null}
    </section>
  );
}
