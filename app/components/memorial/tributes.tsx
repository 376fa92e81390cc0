import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, useNavigation } from "react-router";
import { ErrorList, Field, FormAlert } from "~/components/forms";
import { formatLongDate } from "~/utils/dates";
import { TRIBUTE_LIMITS, TRIBUTE_MESSAGES, tributeSchema } from "~/utils/validation/tribute";

// The tribute section of a memorial page (memorial-core.md §2): approved tributes newest first, paged;
// for the owner (and an administrator where allowed) the pending ones with Approve and Reject; and the
// Leave Tribute form. Tribute text is rendered as text by React: markup in it never runs.

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
  lastResult?: SubmissionResult<string[]> | null;
  refusal?: string | null;
};

export function TributeSection(props: TributeSectionProps) {
  const { approved, pending } = props;
  return (
    <section id="tributes" aria-labelledby="tributes-heading" className="mt-10">
      <h2 id="tributes-heading" className="font-serif text-2xl font-semibold text-slate-900">
        Tributes {approved.total ? <span className="text-lg font-normal text-slate-700">({approved.total})</span> : null}
      </h2>
      {pending && pending.length ? <PendingTributes {...props} pending={pending} /> : null}
      {approved.items.length ? (
        <ol className="mt-4 space-y-4">
          {approved.items.map((t) => (
            <li key={t.id} className="rounded-lg border border-slate-200 bg-white p-4">
              <p className="whitespace-pre-line text-slate-800">{t.content}</p>
              <p className="mt-2 text-sm text-slate-700">
                — <span className="font-semibold">{t.authorName}</span>, {formatLongDate(t.createdAt)}
              </p>
            </li>
          ))}
        </ol>
      ) : (
        <p className="mt-3 text-slate-700">No tributes yet. Be the first to share a memory.</p>
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
          <span className="text-slate-700">
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
      <ul className="mt-3 space-y-3">
        {pending.map((t) => {
          const busy = navigation.state !== "idle" && navigation.formData?.get("tributeId") === t.id;
          return (
            <li key={t.id} className="rounded-md border border-amber-200 bg-white p-3">
              <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-950">Pending</span>
              <p className="mt-2 whitespace-pre-line text-slate-800">{t.content}</p>
              <p className="mt-1 text-sm text-slate-700">
                — {t.authorName}
                {t.authorEmail ? ` (${t.authorEmail})` : ""}, {formatLongDate(t.createdAt)}
              </p>
              {canModerate ? (
                <div className="mt-2 flex gap-2">
                  <Form method="post" preventScrollReset>
                    <input type="hidden" name="tributeId" value={t.id} />
                    <button type="submit" name="intent" value="approve" className="btn-primary" disabled={busy}>
                      Approve<span className="sr-only"> tribute from {t.authorName}</span>
                    </button>
                  </Form>
                  <Form method="post" preventScrollReset>
                    <input type="hidden" name="tributeId" value={t.id} />
                    <button type="submit" name="intent" value="reject" className="btn-secondary" disabled={busy}>
                      Reject<span className="sr-only"> tribute from {t.authorName}</span>
                    </button>
                  </Form>
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function LeaveTribute({ defaults, stamp, lastResult, refusal }: TributeSectionProps) {
  const navigation = useNavigation();
  const sending = navigation.state === "submitting" && navigation.formData?.get("intent") === "tribute";
  const [form, fields] = useForm({
    id: "leave-tribute",
    lastResult,
    constraint: getZodConstraint(tributeSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: tributeSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { ...defaults, content: "" },
  });
  const contentErrorId = fields.content.errors?.length ? `${fields.content.id}-error` : undefined;
  return (
    <div className="mt-8 rounded-lg border border-slate-200 bg-slate-50 p-4 sm:p-6">
      <h3 className="text-lg font-semibold text-slate-900">Leave a Tribute</h3>
      <p className="mt-1 text-sm text-slate-700">The family reads every tribute before it appears here.</p>
      {refusal ? (
        <div className="mt-3">
          <FormAlert title="Your tribute was not sent">{refusal}</FormAlert>
        </div>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4" preventScrollReset>
        <input type="hidden" name="formStartedAt" value={stamp} />
        {/* Honeypot: hidden from people (and screen readers); bots fill every field. */}
        <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
          <label>
            Leave this empty
            <input type="text" name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
          </label>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Your name" errors={fields.authorName.errors} inputProps={{ ...getInputProps(fields.authorName, { type: "text" }), autoComplete: "name" }} />
          <Field
            label="Your email (optional)"
            hint="Only the family sees it."
            errors={fields.authorEmail.errors}
            inputProps={{ ...getInputProps(fields.authorEmail, { type: "email" }), autoComplete: "email" }}
          />
        </div>
        <div>
          <label htmlFor={fields.content.id} className="block text-sm font-medium text-slate-800">
            Your tribute
          </label>
          <p id={`${fields.content.id}-hint`} className="text-sm text-slate-700">
            {TRIBUTE_LIMITS.contentMin}–{TRIBUTE_LIMITS.contentMax.toLocaleString("en-GB")} characters.
          </p>
          <textarea
            {...getTextareaProps(fields.content)}
            rows={5}
            aria-describedby={[`${fields.content.id}-hint`, contentErrorId].filter(Boolean).join(" ")}
            className={`mt-1 block w-full rounded-md border px-3 py-2 text-slate-900 shadow-sm ${contentErrorId ? "border-red-600" : "border-slate-400"}`}
          />
          <ErrorList id={contentErrorId} errors={fields.content.errors} />
        </div>
        <button type="submit" name="intent" value="tribute" className="btn-primary" disabled={sending}>
          {sending ? "Sending..." : "Leave Tribute"}
        </button>
      </Form>
    </div>
  );
}
