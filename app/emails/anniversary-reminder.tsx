import { Link, Text } from "@react-email/components";
import type { AnniversaryKind, ReminderOccasion } from "~/utils/anniversaries";
import { EmailLayout, text, VisitMemorial } from "./layout";

// A gentle reminder of an anniversary (decision 025), to a follower who asked for them:
// a week before, and on the day, of the birthday and of the anniversary of the passing.

export type AnniversaryReminderProps = {
  firstName: string | null;
  memorialName: string;
  kind: AnniversaryKind;
  occasion: ReminderOccasion;
  /** The day, written out ("December 3, 2026"). */
  date: string;
  /** The age they would be, or the years since their passing, on that day. */
  years: number;
  memorialUrl: string;
  tributeUrl: string;
  unsubscribeUrl: string;
  stopRemindersUrl: string;
};

export function anniversaryReminderSubject({ memorialName, kind, occasion }: Pick<AnniversaryReminderProps, "memorialName" | "kind" | "occasion">) {
  const what = kind === "birthday" ? "their birthday" : "the anniversary of their passing";
  return occasion === "week-before" ? `Remembering ${memorialName}: ${what} is next week` : `Remembering ${memorialName} today, on ${what}`;
}

const ordinal = (n: number) => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : (({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[n % 10] ?? "th");
  return `${n}${suffix}`;
};

/** The sentence that says which day it is. */
export function reminderLine({
  memorialName,
  kind,
  occasion,
  date,
  years,
}: Pick<AnniversaryReminderProps, "memorialName" | "kind" | "occasion" | "date" | "years">) {
  const when = occasion === "week-before" ? `Next week, on ${date}` : `Today, ${date}`;
  if (kind === "birthday") return `${when}, is ${memorialName}'s birthday${years > 0 ? `. It would have been their ${ordinal(years)}` : ""}.`;
  const since = years === 1 ? "a year" : `${years} years`;
  return occasion === "week-before"
    ? `${when}, it will be ${since} since ${memorialName} passed away.`
    : `${when}, it is ${since} since ${memorialName} passed away.`;
}

export function AnniversaryReminderEmail(props: AnniversaryReminderProps) {
  const { firstName, memorialName, occasion, memorialUrl, tributeUrl, unsubscribeUrl, stopRemindersUrl } = props;
  return (
    <EmailLayout
      preview={reminderLine(props)}
      unsubscribeUrl={unsubscribeUrl}
      why={`You are receiving this because you follow the memorial of ${memorialName} and asked to be reminded of its anniversaries.`}
    >
      <Text style={text}>{firstName ? `Dear ${firstName},` : "Hello,"}</Text>
      <Text style={text}>{reminderLine(props)}</Text>
      <Text style={text}>
        {occasion === "week-before"
          ? "We wanted to let you know ahead of the day, in case you would like to plan a moment to remember them."
          : "We are thinking of everyone who misses them today."}{" "}
        If you would like to, you can visit their memorial, or leave a few words or a memory for the family.
      </Text>
      <VisitMemorial memorialUrl={memorialUrl} tributeUrl={tributeUrl} tributeLabel="Leave a tribute" />
      <Text style={{ ...text, fontSize: "14px" }}>
        <Link href={stopRemindersUrl}>Stop the anniversary reminders only</Link> (you will still follow the memorial).
      </Text>
    </EmailLayout>
  );
}
