import { Link, Text } from "@react-email/components";
import { button, EmailLayout, text } from "./layout";

export type TributesWaitingProps = { firstName: string; memorialName: string; authors: string[]; count: number; approveUrl: string; unsubscribeUrl: string };

export const tributesWaitingSubject = ({ count, memorialName }: Pick<TributesWaitingProps, "count" | "memorialName">) =>
  count === 1 ? `A tribute to ${memorialName} is waiting for you` : `${count} tributes to ${memorialName} are waiting for you`;

/** "Ann", "Ann and Bob", "Ann, Bob and 3 others". */
export function listAuthors(authors: string[], total: number) {
  const shown = authors.slice(0, 3);
  const others = total - shown.length;
  if (others > 0) return `${shown.join(", ")} and ${others} other${others === 1 ? "" : "s"}`;
  return shown.length > 1 ? `${shown.slice(0, -1).join(", ")} and ${shown.at(-1)}` : (shown[0] ?? "");
}

export function TributesWaitingEmail({ firstName, memorialName, authors, count, approveUrl, unsubscribeUrl }: TributesWaitingProps) {
  return (
    <EmailLayout
      preview={`${listAuthors(authors, count)} left ${count === 1 ? "a tribute" : "tributes"}`}
      unsubscribeUrl={unsubscribeUrl}
      why="You are receiving this because you chose to hear about tributes waiting for your approval (Account → Notifications)."
    >
      <Text style={text}>Dear {firstName},</Text>
      <Text style={text}>
        {listAuthors(authors, count)} left {count === 1 ? "a tribute" : `${count} tributes`} on the memorial of {memorialName}. Tributes appear on the memorial
        once you approve them.
      </Text>
      <Text style={text}>
        <Link href={approveUrl} style={button}>
          Read and approve
        </Link>
      </Text>
    </EmailLayout>
  );
}
