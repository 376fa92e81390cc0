import { Link, Text } from "@react-email/components";
import { EmailLayout, text } from "./layout";

// A few days before a deleted memorial or account goes for good. Always sent, once.

export type PurgeNoticeProps = { firstName: string; what: "memorial" | "account"; title: string | null; purgeDate: string; restoreUrl: string };

export const purgeNoticeSubject = ({ what, title }: Pick<PurgeNoticeProps, "what" | "title">) =>
  what === "account" ? "Your deleted Everlight account will be removed for good soon" : `The memorial “${title}” will be removed for good soon`;

export function PurgeNoticeEmail({ firstName, what, title, purgeDate, restoreUrl }: PurgeNoticeProps) {
  return (
    <EmailLayout preview={`Restore it before ${purgeDate} if you want to keep it`} why="We send this a few days before something deleted is removed for good.">
      <Text style={text}>Dear {firstName},</Text>
      {what === "account" ? (
        <Text style={text}>
          Your Everlight account was deleted nearly 30 days ago. On {purgeDate} it will be removed for good, with its memorials, photos, videos, tributes and
          vault files, and cannot be recovered after that.
        </Text>
      ) : (
        <Text style={text}>
          The memorial “{title}” was deleted nearly 30 days ago. On {purgeDate} it will be removed for good, with its photos, videos and tributes, and cannot be
          recovered after that.
        </Text>
      )}
      <Text style={text}>
        If you want to keep it, {what === "account" ? <Link href={restoreUrl}>sign in</Link> : <Link href={restoreUrl}>open My Memorials</Link>} before then and
        choose Restore. If you meant to delete it, there is nothing to do.
      </Text>
    </EmailLayout>
  );
}
