import { useEffect, useRef, useState, type FormEvent, type RefObject } from "react";
import { Form, Link, useFormAction, useNavigation } from "react-router";
import { AntiSpamFields } from "~/components/anti-spam-fields";
import { ErrorList, Field, FormAlert, useHydrated } from "~/components/forms";
import { ModerationActions } from "~/components/memorial/moderation-actions";
import { ToastInPlace } from "~/components/toaster";
import { formatLongDate } from "~/utils/dates";
import { AI_LIMITS, AI_MESSAGES, checkAssistant, TRIBUTE_TONES, type AssistantField, type AssistantResult } from "~/utils/validation/ai-rules";
import { checkTributeField, TRIBUTE_FIELDS, TRIBUTE_LIMITS, TRIBUTE_MESSAGES, type TributeField } from "~/utils/validation/tribute-rules";
import { withThousands } from "~/utils/text";

// The tribute section of a memorial page: approved tributes newest first, paged;
// for the owner (and an administrator where allowed) the pending ones with Approve and Reject; and the
// Leave Tribute form with its AI tribute assistant ("Help me write"). Tribute text is rendered as text by
// React: markup in it never runs.
//
// This is the page most visitors land on, so its forms check input with the small zod-free rules of
// tribute-rules.ts and ai-rules.ts (no form or schema library in the browser); the server checks again.

type Tribute = { id: string; authorName: string; content: string; createdAt: string | Date; authorEmail?: string | null };

export type TributeSectionProps = {
  memorialId: string;
  approved: { items: Tribute[]; total: number; page: number; pages: number };
  pending: Tribute[] | null;
  /** Whether this viewer may approve and reject (owner, or an admin on an admin's memorial). */
  canModerate: boolean;
  /** An administrator looking at a member's memorial: sees pending tributes but may not act. */
  adminRestricted: boolean;
  defaults: { authorName: string; authorEmail: string };
  stamp: string;
  /** The server's answer to a refused tribute (conform's reply shape): what was sent, and field errors. */
  lastResult?: TributeReply | null;
  refusal?: string | null;
  /** The assistant's last round-trip (JavaScript off): its fields, errors, and who wrote the draft. */
  assistant?: AssistantResult | null;
  /** The first name of the person remembered, for the assistant's wording. */
  personName?: string;
};

type TributeReply = { initialValue?: Record<string, unknown> | null; error?: Record<string, string[] | null | undefined> | null };
type TributeErrors = Partial<Record<TributeField, string[]>>;

function replyErrors(reply: TributeReply | null | undefined): TributeErrors {
  const errors: TributeErrors = {};
  for (const field of TRIBUTE_FIELDS) {
    const messages = reply?.error?.[field];
    if (messages?.length) errors[field] = messages;
  }
  return errors;
}

/** The tribute section's id: moderation and Leave Tribute come back to it (#tributes), its thanks shown in it. */
export const TRIBUTES_SECTION = "tributes";
/** The Leave Tribute box, where the assistant's round-trip without JavaScript comes back to. */
const LEAVE_TRIBUTE = "leave-tribute";

export function TributeSection(props: TributeSectionProps) {
  const { approved, pending } = props;
  return (
    <section id={TRIBUTES_SECTION} aria-labelledby="tributes-heading" className="render-when-near mt-10">
      <h2 id="tributes-heading" className="text-2xl font-semibold text-stone-900">
        Tributes {approved.total ? <span className="text-lg font-normal text-stone-700">({approved.total})</span> : null}
      </h2>
      <ToastInPlace at={TRIBUTES_SECTION} />
      {pending && pending.length ? <PendingTributes {...props} pending={pending} /> : null}
      {approved.items.length ? (
        <ol className="mt-4 space-y-4 wrap-anywhere">
          {approved.items.map((t) => (
            <li key={t.id} className="rounded-lg border border-stone-200 bg-white p-4">
              <p className="whitespace-pre-line text-stone-800">{t.content}</p>
              <p className="mt-2 text-sm text-stone-700">
                — <span className="font-semibold">{t.authorName}</span>, {formatLongDate(t.createdAt)}
              </p>
            </li>
          ))}
        </ol>
      ) : (
        <p className="mt-3 text-stone-700">No tributes yet. Be the first to share a memory.</p>
      )}
      {approved.pages > 1 ? (
        <nav aria-label="Tribute pages" className="mt-4 flex items-center justify-between text-sm">
          {approved.page > 1 ? (
            <Link to={`?tributes=${approved.page - 1}#tributes`} className="link" preventScrollReset>
              Newer tributes
            </Link>
          ) : (
            <span />
          )}
          <span className="text-stone-700">
            Page {approved.page} of {approved.pages}
          </span>
          {approved.page < approved.pages ? (
            <Link to={`?tributes=${approved.page + 1}#tributes`} className="link" preventScrollReset>
              Older tributes
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
      <LeaveTribute {...props} />
    </section>
  );
}

function PendingTributes({ pending, canModerate, adminRestricted }: TributeSectionProps & { pending: Tribute[] }) {
  const navigation = useNavigation();
  return (
    <div className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-4">
      <h3 className="font-semibold text-amber-950">Waiting for approval ({pending.length})</h3>
      {adminRestricted ? <p className="mt-1 text-sm text-amber-950">{TRIBUTE_MESSAGES.adminRestricted}</p> : null}
      <ul className="mt-3 space-y-3 wrap-anywhere">
        {pending.map((t) => {
          const busy = navigation.state !== "idle" && navigation.formData?.get("tributeId") === t.id;
          return (
            <li key={t.id} className="rounded-md border border-amber-200 bg-white p-3">
              <span className="rounded-full bg-amber-100 px-2 py-0.5 text-sm font-semibold text-amber-950">Pending</span>
              <p className="mt-2 whitespace-pre-line text-stone-800">{t.content}</p>
              <p className="mt-1 text-sm text-stone-700">
                — {t.authorName}
                {t.authorEmail ? ` (${t.authorEmail})` : ""}, {formatLongDate(t.createdAt)}
              </p>
              {canModerate ? <ModerationActions tributeId={t.id} authorName={t.authorName} busy={busy} /> : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function LeaveTribute({ memorialId, defaults, stamp, lastResult, refusal, assistant, personName }: TributeSectionProps) {
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const dialog = useRef<HTMLDialogElement>(null);
  const [writer, setWriter] = useState<WriterState>(() => writerStateFrom(assistant));
  useEffect(() => setWriter(writerStateFrom(assistant)), [assistant]);
  const writing = writer.state === "writing";
  const sending = navigation.state === "submitting" && navigation.formData?.get("intent") === "tribute";
  // The assistant's round-trip comes back to the form, where the draft now is (a #fragment, which works
  // without JavaScript).
  const assistantAction = `${useFormAction()}#${LEAVE_TRIBUTE}`;
  // Checked on Leave Tribute, then again as the visitor types in a field with an
  // error. Not when a field is left: an error appearing then would push the button down under the
  // finger that is about to tap it.
  const [errors, setErrors] = useState<TributeErrors>(() => replyErrors(lastResult));
  useEffect(() => setErrors(replyErrors(lastResult)), [lastResult]);
  // A refused tribute comes back at its errors: the reason it was not sent, else the first
  // field refused, has the focus as the page loads. Without JavaScript that is `autofocus`, which also
  // brings the page to it (no #fragment on the form: the browser skips autofocus when the address names
  // an element); with JavaScript the page stays where it was and the effect below moves the focus.
  const firstRefused = TRIBUTE_FIELDS.find((f) => replyErrors(lastResult)[f]);
  const focusOnLoad = refusal ? "refusal" : firstRefused;
  const refusalBox = useRef<HTMLDivElement>(null);
  const seenReply = useRef(lastResult);
  useEffect(() => {
    if (seenReply.current === lastResult) return;
    seenReply.current = lastResult;
    if (focusOnLoad === "refusal") refusalBox.current?.focus();
    else if (focusOnLoad) document.getElementById(fieldId(focusOnLoad))?.focus();
  }, [lastResult, focusOnLoad]);
  const formRef = useRef<HTMLFormElement>(null);
  const sent = useRef(false);
  useEffect(() => {
    // A tribute that went through comes back as a redirect with no answer: empty the form for the next.
    if (sending) sent.current = true;
    else if (sent.current && navigation.state === "idle") {
      sent.current = false;
      if (!lastResult) {
        formRef.current?.reset();
        // The emptied box no longer holds the assistant's draft: its note goes too.
        setWriter({ state: "idle" });
      }
    }
  }, [sending, navigation.state, lastResult]);
  const check = (field: TributeField, value: string) =>
    setErrors((current) => {
      const message = checkTributeField(field, value);
      const { [field]: _old, ...rest } = current;
      return message ? { ...rest, [field]: [message] } : rest;
    });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const intent = (event.nativeEvent as SubmitEvent).submitter?.getAttribute("value");
    if (intent === "ai-tribute") return;
    const data = new FormData(event.currentTarget);
    const found: TributeErrors = {};
    for (const field of TRIBUTE_FIELDS) {
      const message = checkTributeField(field, String(data.get(field) ?? ""));
      if (message) found[field] = [message];
    }
    setErrors(found);
    const first = TRIBUTE_FIELDS.find((f) => found[f]);
    if (first) {
      event.preventDefault();
      document.getElementById(fieldId(first))?.focus();
    }
  };
  const initial = (field: TributeField) => {
    const given = lastResult?.initialValue?.[field];
    return typeof given === "string" ? given : field === "content" ? "" : defaults[field];
  };
  /** What each field takes from its name: its id, what it starts with, focus after a refusal, and its check as it is corrected. */
  const fieldProps = (field: TributeField) => ({
    id: fieldId(field),
    name: field,
    defaultValue: initial(field),
    autoFocus: field === focusOnLoad,
    onInput: (e: { currentTarget: { value: string } }) => {
      if (errors[field]) check(field, e.currentTarget.value);
    },
  });
  const contentId = fieldId("content");
  const contentErrorId = errors.content?.length ? `${contentId}-error` : undefined;
  const noteId = writer.state === "done" ? WRITER_NOTE_ID : undefined;
  return (
    <div id={LEAVE_TRIBUTE} className="mt-8 rounded-lg border border-stone-200 bg-stone-50 p-4 sm:p-6">
      <h3 className="text-lg font-semibold text-stone-900">Leave a Tribute</h3>
      <p className="mt-1 text-sm text-stone-700">The family reads every tribute before it appears here.</p>
      {refusal ? (
        <div ref={refusalBox} tabIndex={-1} autoFocus={focusOnLoad === "refusal"} className="mt-3">
          <FormAlert title="Your tribute was not sent">{refusal}</FormAlert>
        </div>
      ) : null}
      {/* data-hydrate-near: the page's scripts load as the visitor nears the form (hydrate-on-use.server.ts). */}
      <Form method="post" ref={formRef} noValidate onSubmit={onSubmit} className="mt-4 space-y-4" preventScrollReset data-hydrate-near="">
        <AntiSpamFields stamp={stamp} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Your name"
            errors={errors.authorName}
            inputProps={{ ...fieldProps("authorName"), type: "text", required: true, maxLength: TRIBUTE_LIMITS.nameMax, autoComplete: "name" }}
          />
          <Field
            label="Your email (optional)"
            hint="Only the family sees it."
            errors={errors.authorEmail}
            inputProps={{ ...fieldProps("authorEmail"), type: "email", maxLength: TRIBUTE_LIMITS.emailMax, autoComplete: "email" }}
          />
        </div>
        <div>
          <div className="flex flex-wrap items-end justify-between gap-2">
            <div>
              <label htmlFor={contentId} className="block text-sm font-medium text-stone-800">
                Your tribute
              </label>
              <p id={`${contentId}-hint`} className="text-sm text-stone-700">
                {TRIBUTE_LIMITS.contentMin}–{withThousands(TRIBUTE_LIMITS.contentMax)} characters.
              </p>
            </div>
            {hydrated ? (
              <button
                type="button"
                id={OPENER_ID}
                aria-haspopup="dialog"
                className="btn-secondary"
                disabled={writing}
                onClick={() => dialog.current?.showModal()}
              >
                Help me write
              </button>
            ) : null}
          </div>
          <textarea
            {...fieldProps("content")}
            required
            maxLength={TRIBUTE_LIMITS.contentMax}
            rows={5}
            aria-invalid={contentErrorId ? true : undefined}
            aria-describedby={[`${contentId}-hint`, contentErrorId, noteId].filter(Boolean).join(" ")}
            className={`mt-1 block w-full rounded-md border px-3 py-2 text-stone-900 shadow-sm read-only:bg-stone-100 ${contentErrorId ? "border-red-600" : "border-stone-400"}`}
          />
          <ErrorList id={contentErrorId} errors={errors.content} />
          <WriterNote state={writer} />
        </div>
        <button type="submit" name="intent" value="tribute" className="btn-primary" disabled={sending || writing}>
          {sending ? "Sending..." : "Leave Tribute"}
        </button>
        {/* Without JavaScript the assistant is part of this form, so the round-trip keeps what was typed. */}
        {hydrated ? null : <AssistantDisclosure assistant={assistant} personName={personName} formAction={assistantAction} />}
      </Form>
      {hydrated ? (
        <AssistantDialog dialogRef={dialog} memorialId={memorialId} personName={personName} initial={assistant} contentId={contentId} onWriter={setWriter} />
      ) : null}
    </div>
  );
}

// ───────────────────────────── the AI tribute assistant ─────────────────────────────

const fieldId = (field: TributeField) => `leave-tribute-${field}`;
const OPENER_ID = "tribute-assistant-opener";
const WRITER_NOTE_ID = "tribute-writer-note";
const SUMMARY_ID = "tribute-assistant-summary";

type WriterState = { state: "idle" } | { state: "writing" } | { state: "done"; label: string } | { state: "failed"; message: string };

function writerStateFrom(assistant: AssistantResult | null | undefined): WriterState {
  return assistant?.writtenBy ? { state: "done", label: assistant.writtenBy.label } : { state: "idle" };
}

const assistantIntro = (personName?: string) =>
  `Tell us how you knew ${personName || "them"}, choose a tone and share a memory or two. We write a first draft from exactly what you tell us and put it in the tribute box, for you to read and change. Nothing is sent until you press Leave Tribute.`;

/** Under the tribute box: the draft is being written, who wrote it, or why it could not be. */
function WriterNote({ state }: { state: WriterState }) {
  return (
    <div role="status" aria-live="polite" className="empty:hidden">
      {state.state === "writing" ? <p className="mt-2 text-sm text-stone-700">Writing your tribute…</p> : null}
      {state.state === "done" ? (
        <div id={WRITER_NOTE_ID} className="mt-2 rounded-md border border-heather-200 bg-heather-50 px-3 py-2 text-sm text-heather-950">
          <p className="font-semibold">{AI_MESSAGES.tributeGenerated}</p>
          <p>{state.label}. Please read it through and make it your own before you leave your tribute.</p>
        </div>
      ) : null}
      {state.state === "failed" ? <p className="mt-2 text-sm font-semibold text-red-700">{state.message}</p> : null}
    </div>
  );
}

/** Without JavaScript: a disclosure inside the tribute form whose button sends the form back with intent "ai-tribute". */
function AssistantDisclosure({ assistant, personName, formAction }: { assistant?: AssistantResult | null; personName?: string; formAction: string }) {
  const needsAttention = !!(assistant?.errors || assistant?.failure);
  return (
    <details id="tribute-assistant" open={needsAttention} className="rounded-md border border-stone-300 bg-white p-4">
      <summary className="cursor-pointer font-semibold text-heather-800">Help me write</summary>
      <div className="mt-3 space-y-4">
        <p className="text-sm text-stone-700">{assistantIntro(personName)}</p>
        {assistant?.failure ? <FormAlert title="Error">{assistant.failure}</FormAlert> : null}
        <AssistantFields values={assistant?.values} errors={assistant?.errors ?? null} />
        <button type="submit" name="intent" value="ai-tribute" formNoValidate formAction={formAction} className="btn-secondary">
          Write my tribute
        </button>
      </div>
    </details>
  );
}

type AssistantDialogProps = {
  dialogRef: RefObject<HTMLDialogElement | null>;
  memorialId: string;
  personName?: string;
  initial?: AssistantResult | null;
  contentId: string;
  onWriter: (state: WriterState) => void;
};

/**
 * With JavaScript: a native modal <dialog> (showModal keeps focus inside; Escape closes; focus goes back
 * to "Help me write"). The tribute is streamed from /api/ai/stream-tribute straight into the tribute
 * box, so the visitor watches it being written; on failure the box gets back what it had.
 */
function AssistantDialog({ dialogRef, memorialId, personName, initial, contentId, onWriter }: AssistantDialogProps) {
  const [errors, setErrors] = useState<AssistantResult["errors"]>(initial?.errors ?? null);
  const [failure, setFailure] = useState<string | null>(initial?.failure ?? null);
  const [busy, setBusy] = useState(false);
  const closingToWrite = useRef(false);

  // A round-trip that started before the page was interactive and needs attention: show it again.
  useEffect(() => {
    if ((initial?.errors || initial?.failure) && !dialogRef.current?.open) dialogRef.current?.showModal();
  }, [initial, dialogRef]);
  useEffect(() => {
    if (errors) dialogRef.current?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus();
  }, [errors, dialogRef]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const values = Object.fromEntries(new FormData(event.currentTarget)) as Record<AssistantField, string>;
    const problems = checkAssistant(values);
    setFailure(null);
    if (problems) return setErrors(problems);
    setErrors(null);
    setBusy(true);
    try {
      const response = await fetch("/api/ai/stream-tribute", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "text/plain" },
        body: JSON.stringify({ memorialId, ...values }),
      }).catch(() => null);
      if (!response?.ok || !response.body) {
        // A limit says when to come back; anything else gets the fixed failure wording.
        const limited = response?.status === 429 ? ((await response.json().catch(() => null)) as { message?: string } | null)?.message : null;
        return setFailure(limited ?? AI_MESSAGES.formTributeFailed);
      }
      closingToWrite.current = true;
      dialogRef.current?.close();
      await streamInto(contentId, response, onWriter);
    } finally {
      setBusy(false);
    }
  }

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby="tribute-assistant-title"
      aria-describedby="tribute-assistant-intro"
      onClose={() => {
        if (closingToWrite.current) closingToWrite.current = false;
        else document.getElementById(OPENER_ID)?.focus();
      }}
      className="m-auto w-[calc(100%-2rem)] max-w-lg rounded-lg bg-white p-6 text-stone-800 shadow-xl backdrop:bg-stone-900/60"
    >
      <form method="post" noValidate onSubmit={onSubmit} className="space-y-4">
        <h2 id="tribute-assistant-title" className="text-lg font-semibold text-stone-900">
          Help me write a tribute
        </h2>
        <p id="tribute-assistant-intro" className="text-sm text-stone-700">
          {assistantIntro(personName)}
        </p>
        {failure ? <FormAlert title="Error">{failure}</FormAlert> : null}
        <AssistantFields values={initial?.values} errors={errors} />
        <div className="flex justify-end gap-3">
          <button type="button" className="btn-secondary" onClick={() => dialogRef.current?.close()}>
            Cancel
          </button>
          <button type="submit" className="btn-primary" disabled={busy}>
            {busy ? "Writing..." : "Write my tribute"}
          </button>
        </div>
      </form>
    </dialog>
  );
}

/** Reads the streamed tribute into the tribute box, piece by piece, then hands the box back to the visitor. */
async function streamInto(contentId: string, response: Response, onWriter: (state: WriterState) => void) {
  const box = document.getElementById(contentId);
  if (!(box instanceof HTMLTextAreaElement) || !response.body) return;
  const before = box.value;
  box.value = "";
  box.readOnly = true;
  box.setAttribute("aria-busy", "true");
  onWriter({ state: "writing" });
  try {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      box.value += value;
      box.scrollTop = box.scrollHeight;
    }
    if (!box.value.trim()) throw new Error("No text came back");
    onWriter({ state: "done", label: response.headers.get("X-Writing-Provider-Label") ?? "Written by AI from the details you gave" });
  } catch {
    box.value = before;
    onWriter({ state: "failed", message: AI_MESSAGES.formTributeFailed });
  } finally {
    box.readOnly = false;
    box.removeAttribute("aria-busy");
    // The box is checked again as it changes: a "please write your tribute" error clears now it is filled.
    box.dispatchEvent(new Event("input", { bubbles: true }));
    box.focus();
  }
}

/**
 * Relationship, Tone and Memories, labelled, with their errors tied to them. A missing field points at
 * the one summary ("Please fill in all fields" / "We need all information…")
 * instead of repeating it under each field; any other problem (too long) is shown under its field.
 */
function AssistantFields({ values, errors }: { values?: Record<AssistantField, string>; errors: AssistantResult["errors"] }) {
  const missing = (field: AssistantField) => !!errors?.[field]?.includes(AI_MESSAGES.missingFieldsTitle);
  const other = (field: AssistantField) => errors?.[field]?.filter((m) => m !== AI_MESSAGES.missingFieldsTitle) ?? [];
  const aria = (field: AssistantField, hintId?: string) => {
    const own = other(field).length ? `ai-${field}-error` : null;
    const invalid = missing(field) || !!own;
    return {
      id: `ai-${field}`,
      name: field,
      "aria-invalid": invalid || undefined,
      "aria-describedby": [hintId, missing(field) ? SUMMARY_ID : null, own].filter(Boolean).join(" ") || undefined,
      className: `mt-1 block w-full rounded-md border px-3 py-2 text-stone-900 shadow-sm ${invalid ? "border-red-600" : "border-stone-400"}`,
    };
  };
  const anyMissing = (["relationship", "tone", "memories"] as const).some(missing);
  return (
    <>
      {anyMissing ? (
        <FormAlert id={SUMMARY_ID} title={AI_MESSAGES.missingFieldsTitle}>
          {AI_MESSAGES.missingFields}
        </FormAlert>
      ) : null}
      <AssistantFieldBox
        field="relationship"
        label="Relationship"
        hint="How you knew them, for example granddaughter, friend or neighbour."
        errors={other("relationship")}
      >
        <input type="text" maxLength={AI_LIMITS.relationship} defaultValue={values?.relationship ?? ""} {...aria("relationship", "ai-relationship-hint")} />
      </AssistantFieldBox>
      <AssistantFieldBox field="tone" label="Tone" errors={other("tone")}>
        <select defaultValue={values?.tone ?? ""} {...aria("tone")}>
          <option value="">Choose a tone</option>
          {TRIBUTE_TONES.map((t) => (
            <option key={t.value} value={t.value}>
              {t.label}
            </option>
          ))}
        </select>
      </AssistantFieldBox>
      <AssistantFieldBox
        field="memories"
        label="Memories"
        hint={`A few things you remember, one to a line (up to ${withThousands(AI_LIMITS.formMemories)} characters).`}
        errors={other("memories")}
      >
        <textarea rows={4} maxLength={AI_LIMITS.formMemories} defaultValue={values?.memories ?? ""} {...aria("memories", "ai-memories-hint")} />
      </AssistantFieldBox>
    </>
  );
}

/** One of the assistant's fields (the control is the children): its label, its hint when it has one, and its own errors. */
function AssistantFieldBox({
  field,
  label,
  hint,
  errors,
  children,
}: {
  field: AssistantField;
  label: string;
  hint?: string;
  errors: string[];
  children: React.ReactNode;
}) {
  return (
    <div>
      <label htmlFor={`ai-${field}`} className="block text-sm font-medium text-stone-800">
        {label}
      </label>
      {hint ? (
        <p id={`ai-${field}-hint`} className="text-sm text-stone-700">
          {hint}
        </p>
      ) : null}
      {children}
      <ErrorList id={`ai-${field}-error`} errors={errors} />
    </div>
  );
}
