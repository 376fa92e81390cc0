import type { CalendarLinks } from "~/models/memorials/calendar.server";
import { ANNIVERSARY_MESSAGES } from "~/utils/anniversaries";

// "Remember the dates" on the memorial page (docs/decisions/022-anniversary-calendar.md):
// plain links, so it works without JavaScript. A public memorial's block is the same for every visitor (the
// anonymous page cache keeps it); a private link is shown only to the owner and co-managers, who are signed
// in, so it is never in a kept copy.
export function RememberTheDates({
  links,
  firstName,
  fullName,
  dates,
}: {
  links: CalendarLinks;
  firstName: string;
  fullName: string;
  dates: { birthday: boolean; passing: boolean };
}) {
  const isPrivate = links.access === "private-link";
  return (
    <section aria-labelledby="dates-heading" className="rounded-lg border border-stone-200 p-4">
      <h2 id="dates-heading" className="font-semibold text-stone-900">
        {ANNIVERSARY_MESSAGES.heading}
      </h2>
      <p className="mt-2 text-sm text-stone-700 wrap-anywhere">{ANNIVERSARY_MESSAGES.intro(firstName, dates)}</p>
      {isPrivate ? (
        <p className="mt-2 rounded-md bg-amber-50 p-2 text-sm text-amber-900 wrap-anywhere">
          {ANNIVERSARY_MESSAGES.privateNotice(fullName)} {ANNIVERSARY_MESSAGES.privateOnlyYou}
        </p>
      ) : null}
      <div className="mt-3 flex flex-col gap-2">
        <a href={links.subscribeUrl} className="btn-primary">
          {ANNIVERSARY_MESSAGES.subscribe}
        </a>
        <a href={links.downloadPath} download className="btn-secondary">
          {ANNIVERSARY_MESSAGES.download}
        </a>
      </div>
      <details className="mt-3 text-sm">
        <summary className="link cursor-pointer">{ANNIVERSARY_MESSAGES.addressLabel}</summary>
        <p id="calendar-address-hint" className="mt-2 text-stone-700">
          {ANNIVERSARY_MESSAGES.addressHint}
        </p>
        <label htmlFor="calendar-address" className="sr-only">
          {ANNIVERSARY_MESSAGES.addressLabel}
        </label>
        <input
          id="calendar-address"
          type="url"
          readOnly
          value={links.feedUrl}
          aria-describedby="calendar-address-hint"
          className="mt-2 w-full min-w-0 rounded-md border border-stone-300 px-2 py-1 font-mono text-xs text-stone-900"
        />
      </details>
    </section>
  );
}
