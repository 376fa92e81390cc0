import { getFormProps, getInputProps, getSelectProps, getTextareaProps } from "@conform-to/react";
import { parseForm } from "~/request/form.server";
import { data, Form, Link, useLocation, useNavigation } from "react-router";
import { useRef } from "react";
import type { Route } from "./+types/contact";
import { AntiSpamFields } from "~/components/anti-spam-fields";
import { documentLink } from "~/components/document-page";
import { ErrorList, Field, FormAlert } from "~/components/forms";
import { Question, Questions } from "~/components/questions";
import { useSchemaForm } from "~/components/schema-form";
import { ToastInPlace } from "~/components/toaster";
import { sendContactMessage } from "~/models/contact.server";
import { getOptionalUser } from "~/request/auth.server";
import { clientIp } from "~/request/facts.server";
import { checkFormGuard, issueFormStamp } from "~/request/form-guard.server";
import { redirectWithToast } from "~/request/toast.server";
import { SUPPORT_EMAIL, SUPPORT_HOURS, SUPPORT_REPLY_TIME } from "~/utils/site";
import { CONTACT_LIMITS, CONTACT_MESSAGES, CONTACT_TYPE_LABELS, CONTACT_TYPES, contactSchema } from "~/utils/validation/contact";
import type { HydrateOnUseHandle } from "~/request/hydrate-on-use.server";
import type { KeptPageHandle } from "~/utils/kept-pages";

// Complete as plain HTML: its scripts wait for the visitor's first use (app/request/hydrate-on-use.server.ts).
export const handle: HydrateOnUseHandle & KeptPageHandle = { hydrateOnUse: true, kept: { visitors: "document", members: "any" } };

// Contact: the form, prefilled for a signed-in
// member, with each message beside its field and what was typed kept; for visitors a honeypot and
// a minimum fill time (form-guard.server.ts), and a limit per address for everyone (contact.server.ts).
// Beside it: how to reach us, our hours (one sentence, app/utils/site.ts, the same as Help's), a short
// FAQ and the support resources.

const FORM_SECTION = "contact-form";
const FIELD_ORDER = ["name", "email", "subject", "type", "message"] as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getOptionalUser(request);
  return {
    defaults: { name: user ? `${user.firstName} ${user.lastName}` : "", email: user?.email ?? "", type: "general" as const },
    signedIn: !!user,
    // A visitor's page may be kept by the anonymous page cache, which puts in a fresh stamp per copy.
    stamp: context.formStamp ?? issueFormStamp(),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await getOptionalUser(request);
  const form = await request.formData();
  const submission = parseForm(form, { schema: contactSchema });
  const refuse = (refusal: string, status: number, headers?: HeadersInit) =>
    data({ result: submission.reply(), refusal, stamp: issueFormStamp() }, { status, headers });
  // The spam checks are for visitors: a signed-in member is known (and never told they were too quick).
  const guard = user ? "ok" : checkFormGuard(form);
  if (guard === "honeypot") return refuse(CONTACT_MESSAGES.honeypot, 400);
  if (guard !== "ok") return refuse(CONTACT_MESSAGES.tooFast, 400);
  if (submission.status !== "success") return data({ result: submission.reply(), refusal: null, stamp: issueFormStamp() }, { status: 400 });
  const result = await sendContactMessage(submission.value, { user, ip: clientIp(request) });
  if (!result.ok) return refuse(result.message, 429, { "Retry-After": String(result.retryAfterSeconds) });
  // The confirmation is shown where the person is looking: at the form they just sent.
  return redirectWithToast(`/contact#${FORM_SECTION}`, {
    type: "success",
    title: CONTACT_MESSAGES.sentTitle,
    description: `${SUPPORT_REPLY_TIME} We have emailed you to confirm it arrived.`,
    at: FORM_SECTION,
  });
}

/** A refusal by the rate limit says when to try again (React Router sends a document's headers from here). */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

export default function ContactPage({ loaderData, actionData }: Route.ComponentProps) {
  const pending = useNavigation().state === "submitting";
  const [form, fields] = useSchemaForm(contactSchema, {
    id: useContactFormId(actionData !== undefined),
    lastResult: actionData?.result,
    defaultValue: loaderData.defaults,
  });
  const stamp = actionData?.stamp ?? loaderData.stamp;
  // Without JavaScript the browser lands on the first field to correct (autofocus scrolls to it).
  const firstError = FIELD_ORDER.find((name) => fields[name].errors?.length);
  const typeErrorId = fields.type.errors?.length ? `${fields.type.id}-error` : undefined;
  const messageErrorId = fields.message.errors?.length ? `${fields.message.id}-error` : undefined;
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-10">
      <h1 className="text-3xl font-bold text-stone-900">Contact us</h1>
      <p className="mt-1 max-w-2xl text-stone-700">Questions, feedback or help with a memorial: write to us and a person will answer. {SUPPORT_REPLY_TIME}</p>

      <div className="mt-8 grid gap-10 lg:grid-cols-[1fr_18rem]">
        <section id={FORM_SECTION} aria-labelledby="contact-form-heading" className="min-w-0 scroll-mt-24">
          <h2 id="contact-form-heading" className="text-xl font-semibold text-stone-900">
            Send us a message
          </h2>
          <ToastInPlace at={FORM_SECTION} />
          {actionData?.refusal ? (
            <div className="mt-4">
              <FormAlert title="Your message was not sent">{actionData.refusal}</FormAlert>
            </div>
          ) : null}
          <Form method="post" {...getFormProps(form)} key={form.id} className="mt-4 space-y-4">
            <AntiSpamFields stamp={stamp} />
            <div className="grid gap-4 sm:grid-cols-2">
              <Field
                label="Your name"
                errors={fields.name.errors}
                inputProps={{
                  ...getInputProps(fields.name, { type: "text" }),
                  autoComplete: "name",
                  maxLength: CONTACT_LIMITS.nameMax,
                  autoFocus: firstError === "name",
                }}
              />
              <Field
                label="Your email"
                errors={fields.email.errors}
                inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email", autoFocus: firstError === "email" }}
              />
            </div>
            <Field
              label="Subject"
              errors={fields.subject.errors}
              inputProps={{ ...getInputProps(fields.subject, { type: "text" }), maxLength: CONTACT_LIMITS.subjectMax, autoFocus: firstError === "subject" }}
            />
            <div>
              <label htmlFor={fields.type.id} className="block text-sm font-medium text-stone-800">
                What is it about?
              </label>
              <select
                {...getSelectProps(fields.type)}
                key={fields.type.key}
                autoFocus={firstError === "type"}
                aria-invalid={typeErrorId ? true : undefined}
                aria-describedby={typeErrorId}
                className={`mt-1 block w-full rounded-md border bg-white px-3 py-2 text-stone-900 shadow-sm ${typeErrorId ? "border-red-600" : "border-stone-400"}`}
              >
                {CONTACT_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {CONTACT_TYPE_LABELS[type]}
                  </option>
                ))}
              </select>
              <ErrorList id={typeErrorId} errors={fields.type.errors} />
            </div>
            <div>
              <label htmlFor={fields.message.id} className="block text-sm font-medium text-stone-800">
                Message
              </label>
              <p id={`${fields.message.id}-hint`} className="text-sm text-stone-700">
                At least {CONTACT_LIMITS.messageMin} characters.
              </p>
              <textarea
                {...getTextareaProps(fields.message)}
                key={fields.message.key}
                rows={6}
                maxLength={CONTACT_LIMITS.messageMax}
                autoFocus={firstError === "message"}
                aria-invalid={messageErrorId ? true : undefined}
                aria-describedby={[`${fields.message.id}-hint`, messageErrorId].filter(Boolean).join(" ")}
                className={`mt-1 block w-full rounded-md border px-3 py-2 text-stone-900 shadow-sm ${messageErrorId ? "border-red-600" : "border-stone-400"}`}
              />
              <ErrorList id={messageErrorId} errors={fields.message.errors} />
            </div>
            <button type="submit" className="btn-primary w-full sm:w-auto" disabled={pending}>
              {pending ? "Sending..." : "Send Message"}
            </button>
          </Form>
        </section>

        <aside className="space-y-8" aria-label="Other ways to get help">
          <section aria-labelledby="details-heading">
            <h2 id="details-heading" className="text-lg font-semibold text-stone-900">
              Contact details
            </h2>
            <p className="mt-2 text-stone-700">
              Email:{" "}
              <a href={`mailto:${SUPPORT_EMAIL}`} className={documentLink}>
                {SUPPORT_EMAIL}
              </a>
            </p>
            <p className="mt-2 text-stone-700">Support hours: {SUPPORT_HOURS}.</p>
            <p className="mt-2 text-stone-700">Messages sent outside those hours are answered on the next working day.</p>
          </section>
          <section aria-labelledby="resources-heading">
            <h2 id="resources-heading" className="text-lg font-semibold text-stone-900">
              Support resources
            </h2>
            <ul className="mt-2 space-y-2">
              {RESOURCES.map((r) => (
                <li key={r.to}>
                  <Link to={r.to} className={documentLink}>
                    {r.label}
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        </aside>
      </div>

      <section aria-labelledby="contact-faq-heading" className="mt-12 max-w-3xl">
        <h2 id="contact-faq-heading" className="text-xl font-semibold text-stone-900">
          Frequently asked questions
        </h2>
        <Questions className="mt-4">
          {FAQ.map((item) => (
            <Question key={item.question} question={item.question}>
              <p className="px-5 pb-5 leading-relaxed text-stone-700">{item.answer}</p>
            </Question>
          ))}
        </Questions>
      </section>
    </div>
  );
}

const RESOURCES = [
  { to: "/help", label: "Help Center" },
  { to: "/memorials/create", label: "Create a memorial" },
  { to: "/memorials", label: "Browse memorials" },
  { to: "/privacy", label: "Privacy Policy" },
];

const FAQ = [
  {
    question: "How quickly will you reply?",
    answer: `${SUPPORT_REPLY_TIME} Our team works ${SUPPORT_HOURS}, so a message sent at the weekend is answered on Monday.`,
  },
  {
    question: "Can you restore a memorial I deleted?",
    answer:
      "Yes, within 30 days of its deletion, and you can do it yourself: My Memorials lists it under Recently deleted, with a Restore button. A deleted account comes back when you sign in to it within 30 days. If you cannot, write to us from the email address of your account.",
  },
  {
    question: "How do I report a memorial or a tribute?",
    answer:
      "Send us a message with the memorial's address and what is wrong. Our moderators look at every report, and families can remove tributes on their own memorials at any time.",
  },
  {
    question: "Do you offer help by telephone?",
    answer: `Not at the moment. Email ${SUPPORT_EMAIL} or use this form, and a member of our team will write back.`,
  },
];

/**
 * The form's id: the same in the server's page and in the browser as it takes the page over, the same
 * while the action answers on this page (a refusal keeps what was typed), and a new one once a message
 * sent has brought a new page (a redirect), so the fields start afresh with JavaScript too. The
 * location's key alone differed between the server ("default") and the browser (the history entry's own
 * after a reload or a way back): the form kept the server's id and every submit threw.
 */
function useContactFormId(answered: boolean) {
  const { key } = useLocation();
  const firstKey = useRef(key);
  const id = useRef("contact");
  if (!answered && key !== firstKey.current) id.current = `contact-${key}`;
  return id.current;
}

export const meta: Route.MetaFunction = () => [
  { title: "Contact us · Everlight" },
  { name: "description", content: `Write to Everlight's support team. ${SUPPORT_HOURS}.` },
];
