// Questions and answers as disclosures: each answer opens under its question with or without
// JavaScript (a <details> element), and the plus sign turns into a cross while it is open.

/** The bordered list the questions stand in, one under the other. */
export function Questions({ className, children }: { className: string; children: React.ReactNode }) {
  return <div className={`${className} divide-y divide-stone-200 rounded-lg border border-stone-200`}>{children}</div>;
}

/** One question; its answer (the children) is what opens. */
export function Question({ question, children }: { question: string; children: React.ReactNode }) {
  return (
    <details className="group">
      <summary className="flex cursor-pointer list-none items-start justify-between gap-4 rounded-lg px-5 py-4 text-base font-medium text-stone-900 hover:bg-stone-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-heather-600 [&::-webkit-details-marker]:hidden">
        <span>{question}</span>
        <span aria-hidden="true" className="mt-0.5 shrink-0 text-xl leading-none text-stone-600 transition-transform group-open:rotate-45">
          +
        </span>
      </summary>
      {children}
    </details>
  );
}
