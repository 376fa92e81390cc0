import { Fragment, useEffect, useRef, useState, type FormEvent } from "react";
import { useFetcher } from "react-router";
import { useHydrated } from "~/components/forms";
import { Icon } from "~/components/icons";
import {
  FEEDBACK_POPUP_DELAY_MS,
  FEEDBACK_QUESTIONS,
  FEEDBACK_STEP_PARAM,
  firstUnanswered,
  RATING_MAX,
  RATING_MIN,
  readDraftAnswers,
  SUGGESTIONS_MAX,
  type DraftAnswers,
  type FeedbackQuestion,
  type FeedbackView,
} from "~/utils/feedback";

// The UX feedback popup "Help Us Improve": three questions, Previous / Next /
// Submit, Skip for now and a close icon that record a skip.
// - With JavaScript: a modal <dialog> opened 2 s after the page loads while the popup is due. showModal
//   moves focus in and keeps it there; Escape closes and counts as a skip; focus returns to where it was.
//   Answers are posted with a fetcher to the dashboard's action, which redirects back (no history entry).
// - Without JavaScript (and before hydration): a section on the dashboard. Previous and Next are GET
//   submissions that carry the answers so far in the address; Submit and Skip are form posts.

const ACTION = "/?index";
const TITLE_ID = "feedback-title";
const PROGRESS_ID = "feedback-progress";
const ERROR_ID = "feedback-error";
const LAST = FEEDBACK_QUESTIONS.length - 1;
const EMPTY: DraftAnswers = { ease_of_use: "", feature_satisfaction: [], improvement_suggestions: "" };

export function FeedbackPopup({ view }: { view: FeedbackView | null }) {
  const hydrated = useHydrated();
  if (hydrated) return <FeedbackDialog view={view} />;
  return view ? <FeedbackSection view={view} /> : null;
}

// ───────────────────────────── with JavaScript ─────────────────────────────

function FeedbackDialog({ view }: { view: FeedbackView | null }) {
  const due = view !== null;
  const dueRef = useRef(due);
  dueRef.current = due;
  const dialog = useRef<HTMLDialogElement>(null);
  const returnTo = useRef<Element | null>(null);
  const [step, setStep] = useState(view?.step ?? 0);
  const [answers, setAnswers] = useState<DraftAnswers>(view?.answers ?? EMPTY);
  const [error, setError] = useState<string | null>(view?.error ?? null);
  const submitter = useFetcher<{ feedback?: FeedbackView }>();
  const skipper = useFetcher();
  const submitting = submitter.state !== "idle";

  // Shown 2 seconds after the page loads, while due.
  useEffect(() => {
    if (!due) return;
    const timer = window.setTimeout(() => {
      const element = dialog.current;
      if (!element || element.open) return;
      returnTo.current = document.activeElement;
      element.showModal();
      focusQuestion(element);
    }, FEEDBACK_POPUP_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [due]);

  // Saved: the page's data says the popup is no longer due, so it closes (and is not counted as a skip).
  useEffect(() => {
    if (!due && dialog.current?.open) dialog.current.close();
  }, [due]);

  // The server refused the answers: back to the question concerned, with its message.
  useEffect(() => {
    const refused = submitter.data?.feedback;
    if (!refused) return;
    setStep(refused.step);
    setError(refused.error);
  }, [submitter.data]);

  useEffect(() => {
    if (dialog.current?.open) focusQuestion(dialog.current);
  }, [step, error]);

  /** The answers with what the current question's fields hold now. */
  function withCurrent(form: HTMLFormElement): DraftAnswers {
    const id = FEEDBACK_QUESTIONS[step].id;
    const next = { ...answers, [id]: readDraftAnswers(new FormData(form))[id] };
    setAnswers(next);
    return next;
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const current = withCurrent(event.currentTarget);
    const blocked = firstUnanswered(current, step + 1);
    if (blocked) {
      setStep(blocked.step);
      return setError(blocked.error);
    }
    setError(null);
    if (step < LAST) return setStep(step + 1);
    const body = new FormData();
    body.set("intent", "feedback-submit");
    body.set("ease_of_use", current.ease_of_use);
    for (const feature of current.feature_satisfaction) body.append("feature_satisfaction", feature);
    body.set("improvement_suggestions", current.improvement_suggestions);
    void submitter.submit(body, { method: "post", action: ACTION, preventScrollReset: true });
  }

  function previous(form: HTMLFormElement | null) {
    if (form) withCurrent(form);
    setError(null);
    setStep((s) => Math.max(s - 1, 0));
  }

  return (
    <dialog
      ref={dialog}
      aria-labelledby={due ? TITLE_ID : undefined}
      aria-describedby={due ? PROGRESS_ID : undefined}
      onCancel={(event) => {
        // Escape: a skip, except while the answers are being saved.
        if (submitting) event.preventDefault();
      }}
      onClose={() => {
        // Closed while still due (Skip for now, the close icon, Escape): that is a skip.
        if (dueRef.current) void skipper.submit({ intent: "feedback-skip" }, { method: "post", action: ACTION, preventScrollReset: true });
        if (returnTo.current instanceof HTMLElement && returnTo.current.isConnected) returnTo.current.focus();
      }}
      className="m-auto w-[calc(100%-2rem)] max-w-lg rounded-xl bg-white p-6 text-stone-800 shadow-xl backdrop:bg-stone-900/60"
    >
      {due ? (
        <form method="post" action={ACTION} noValidate onSubmit={onSubmit}>
          <Header step={step} closeButton={<CloseButton onClick={() => dialog.current?.close()} disabled={submitting} />} />
          <Question key={step} question={FEEDBACK_QUESTIONS[step]} answers={answers} error={error} />
          <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
            <button type="button" className="btn-secondary" disabled={step === 0 || submitting} onClick={(e) => previous(e.currentTarget.form)}>
              Previous
            </button>
            <div className="flex flex-wrap gap-3">
              <button type="button" className="btn-ghost" disabled={submitting} onClick={() => dialog.current?.close()}>
                Skip for now
              </button>
              <button type="submit" className="btn-primary" disabled={submitting}>
                {submitting ? "Submitting..." : step === LAST ? "Submit" : "Next"}
              </button>
            </div>
          </div>
        </form>
      ) : null}
    </dialog>
  );
}

/** The question's first field (the chosen star, if any), so a screen reader reads the question out. */
function focusQuestion(root: HTMLElement) {
  const field =
    root.querySelector<HTMLElement>("[data-question] input:checked") ?? root.querySelector<HTMLElement>("[data-question] input, [data-question] textarea");
  field?.focus();
}

// ───────────────────────────── without JavaScript ─────────────────────────────

function FeedbackSection({ view }: { view: FeedbackView }) {
  const { step, answers, error } = view;
  const question = FEEDBACK_QUESTIONS[step];
  return (
    <section aria-labelledby={TITLE_ID} aria-describedby={PROGRESS_ID} className="mt-8 max-w-2xl rounded-xl border border-heather-200 bg-white p-6 shadow-sm">
      {/* Skip is a post of its own: the question form's default (Enter) button stays Next. */}
      <form id="feedback-skip" method="post" action={ACTION}>
        <input type="hidden" name="intent" value="feedback-skip" />
      </form>
      <form method="get" action="/">
        {/* Enter in a field submits with the first submit button: make that Next, not Previous. */}
        {step < LAST ? <button type="submit" name={FEEDBACK_STEP_PARAM} value={step + 2} hidden tabIndex={-1} /> : null}
        <Header step={step} closeButton={<CloseButton form="feedback-skip" />} />
        <Question question={question} answers={answers} error={error} />
        <CarriedAnswers answers={answers} except={question.id} />
        <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
          <button type="submit" name={FEEDBACK_STEP_PARAM} value={step} className="btn-secondary" disabled={step === 0}>
            Previous
          </button>
          <div className="flex flex-wrap gap-3">
            <button type="submit" form="feedback-skip" className="btn-ghost">
              Skip for now
            </button>
            {step < LAST ? (
              <button type="submit" name={FEEDBACK_STEP_PARAM} value={step + 2} className="btn-primary">
                Next
              </button>
            ) : (
              <button type="submit" formMethod="post" formAction={ACTION} name="intent" value="feedback-submit" className="btn-primary">
                Submit
              </button>
            )}
          </div>
        </div>
      </form>
    </section>
  );
}

/** The answers of the other questions, carried from step to step as hidden fields. */
function CarriedAnswers({ answers, except }: { answers: DraftAnswers; except: FeedbackQuestion["id"] }) {
  return (
    <>
      {except !== "ease_of_use" && answers.ease_of_use ? <input type="hidden" name="ease_of_use" value={answers.ease_of_use} /> : null}
      {except !== "feature_satisfaction"
        ? answers.feature_satisfaction.map((feature) => <input key={feature} type="hidden" name="feature_satisfaction" value={feature} />)
        : null}
      {except !== "improvement_suggestions" && answers.improvement_suggestions ? (
        <input type="hidden" name="improvement_suggestions" value={answers.improvement_suggestions} />
      ) : null}
    </>
  );
}

// ───────────────────────────── shared parts ─────────────────────────────

const BAR_WIDTHS = ["w-1/3", "w-2/3", "w-full"];

function Header({ step, closeButton }: { step: number; closeButton: React.ReactNode }) {
  const total = FEEDBACK_QUESTIONS.length;
  return (
    <div>
      <div className="flex items-start justify-between gap-4">
        <h2 id={TITLE_ID} className="text-2xl font-semibold text-stone-900">
          Help Us Improve
        </h2>
        {closeButton}
      </div>
      <p id={PROGRESS_ID} className="mt-1 text-sm text-stone-700">
        Question {step + 1} of {total}
      </p>
      <div aria-hidden="true" className="mt-3 flex items-center gap-3">
        <div className="flex gap-1.5">
          {FEEDBACK_QUESTIONS.map((q, index) => (
            <span key={q.id} className={`h-2.5 w-2.5 rounded-full ${index <= step ? "bg-heather-700" : "bg-stone-300"}`} />
          ))}
        </div>
        <div className="h-1.5 flex-1 overflow-hidden rounded-full bg-stone-200">
          <div className={`h-full rounded-full bg-heather-700 ${BAR_WIDTHS[step] ?? "w-full"}`} />
        </div>
      </div>
    </div>
  );
}

function CloseButton({ onClick, form, disabled }: { onClick?: () => void; form?: string; disabled?: boolean }) {
  return (
    <button
      type={form ? "submit" : "button"}
      form={form}
      onClick={onClick}
      disabled={disabled}
      className="-mr-2 -mt-1 rounded-md p-2 text-stone-600 hover:bg-stone-100 hover:text-stone-900"
    >
      <Icon name="close" className="h-5 w-5" />
      <span className="sr-only">Close and skip feedback</span>
    </button>
  );
}

function Question({ question, answers, error }: { question: FeedbackQuestion; answers: DraftAnswers; error: string | null }) {
  const errorId = error ? ERROR_ID : undefined;
  const invalid = error ? true : undefined;
  const legendClass = "text-lg font-semibold text-stone-900";
  const errorText = error ? (
    <p id={ERROR_ID} role="alert" className="mt-2 text-sm font-semibold text-red-700">
      {error}
    </p>
  ) : null;

  if (question.type === "text") {
    return (
      <div data-question className="mt-6">
        <label htmlFor="feedback-improvement_suggestions" className={`block ${legendClass}`}>
          {question.question}
        </label>
        <textarea
          id="feedback-improvement_suggestions"
          name={question.id}
          rows={4}
          maxLength={SUGGESTIONS_MAX}
          placeholder={question.placeholder}
          defaultValue={answers.improvement_suggestions}
          aria-invalid={invalid}
          aria-describedby={errorId}
          className={`mt-3 block w-full rounded-md border px-3 py-2 text-stone-900 shadow-sm ${error ? "border-red-600" : "border-stone-400"}`}
        />
        {errorText}
      </div>
    );
  }

  if (question.type === "rating") {
    return (
      <fieldset data-question className="mt-6" aria-describedby={["feedback-rating-hint", errorId].filter(Boolean).join(" ")}>
        <legend className={legendClass}>{question.question}</legend>
        <p id="feedback-rating-hint" className="mt-1 text-sm text-stone-700">
          {RATING_MIN} star is very difficult, {RATING_MAX} stars is very easy.
        </p>
        {/* Radios kept in order and flat with their labels, so app.css can fill the stars up to the chosen one. */}
        <div className="star-rating mt-3 flex gap-1">
          {Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => RATING_MIN + i).map((value) => (
            <Fragment key={value}>
              {/* ARIA 1.2 moved aria-invalid off the radio role, but screen readers still announce it on each
                  radio, where the member is; the error itself is tied by aria-describedby. */}
              {/* eslint-disable-next-line jsx-a11y/role-supports-aria-props */}
              <input
                type="radio"
                id={`feedback-rating-${value}`}
                name={question.id}
                value={value}
                defaultChecked={answers.ease_of_use === String(value)}
                aria-invalid={invalid}
                className="sr-only"
              />
              <label htmlFor={`feedback-rating-${value}`} className="cursor-pointer rounded-md p-1 text-amber-700 hover:bg-amber-50">
                <Icon name="star" className="star-icon h-9 w-9" />
                <span className="sr-only">{value === 1 ? "1 star" : `${value} stars`}</span>
              </label>
            </Fragment>
          ))}
        </div>
        {errorText}
      </fieldset>
    );
  }

  return (
    <fieldset data-question className="mt-6" aria-describedby={errorId}>
      <legend className={legendClass}>{question.question}</legend>
      <p className="mt-1 text-sm text-stone-700">Choose all that apply.</p>
      <div className="mt-3 space-y-2">
        {question.options.map((option, index) => (
          <div key={option} className="flex items-center gap-3">
            <input
              type="checkbox"
              id={`feedback-feature-${index}`}
              name={question.id}
              value={option}
              defaultChecked={answers.feature_satisfaction.includes(option)}
              aria-invalid={invalid}
              className="h-5 w-5 rounded border-stone-400 accent-heather-700"
            />
            <label htmlFor={`feedback-feature-${index}`} className="text-stone-800">
              {option}
            </label>
          </div>
        ))}
      </div>
      {errorText}
    </fieldset>
  );
}
