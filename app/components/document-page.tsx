import type { ReactNode } from "react";

// The layout of Everlight's reading pages (the Help Center, Terms and Privacy): a title, an optional
// "Last updated" line, an introduction, and for the legal
// documents a numbered table of contents that links to each section. One layout, so they read alike.

export const documentLink =
  "rounded-sm text-heather-700 underline hover:text-heather-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-heather-600";
export const documentStrong = "font-semibold text-stone-900";

export type DocumentSection = { id: string; heading: string; body: ReactNode };

/** The date the legal pages say they were last updated. */
export const LEGAL_LAST_UPDATED = { iso: "2024-12-01", text: "December 1, 2024" } as const;

export function DocumentPage({
  title,
  updated,
  intro,
  children,
}: {
  title: string;
  updated?: { iso: string; text: string };
  intro: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-semibold tracking-tight text-stone-900 sm:text-4xl">{title}</h1>
      {updated ? (
        <p className="mt-3 text-sm text-stone-700">
          Last updated: <time dateTime={updated.iso}>{updated.text}</time>
        </p>
      ) : null}
      <div className={updated ? "mt-6 leading-relaxed text-stone-700" : "mt-4 text-lg leading-relaxed text-stone-700"}>{intro}</div>
      {children}
    </div>
  );
}

/** A legal document: numbered sections, each its own address, with a table of contents first. */
export function LegalDocument({ id, title, intro, sections }: { id: string; title: string; intro: ReactNode; sections: DocumentSection[] }) {
  return (
    <DocumentPage title={title} updated={LEGAL_LAST_UPDATED} intro={intro}>
      <nav aria-labelledby={`${id}-contents-label`} className="mt-8 rounded-lg border border-stone-200 bg-stone-50 p-5">
        <p id={`${id}-contents-label`} className="text-base font-semibold text-stone-900">
          Contents
        </p>
        <ol className="mt-3 list-decimal space-y-1 pl-5 text-stone-700 sm:columns-2 sm:gap-8">
          {sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`} className={documentLink}>
                {section.heading.replace(/^\d+\.\s*/, "")}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      <div className="mt-10 space-y-10">
        {sections.map((section) => (
          <section key={section.id} id={section.id} aria-labelledby={`${section.id}-heading`} className="scroll-mt-24">
            <h2 id={`${section.id}-heading`} className="text-xl font-semibold tracking-tight text-stone-900">
              {section.heading}
            </h2>
            <div className="mt-3 space-y-4 leading-relaxed text-stone-700">{section.body}</div>
          </section>
        ))}
      </div>
    </DocumentPage>
  );
}
