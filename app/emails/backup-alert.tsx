import { Link, Text } from "@react-email/components";
import { EmailLayout, text } from "./layout";

export type BackupAlertProps = {
  /** failed: the backup just tried did not finish; stale: none has finished for too long. */
  reason: "failed" | "stale";
  error: string | null;
  lastSuccess: string | null;
  adminUrl: string;
};

export const backupAlertSubject = ({ reason }: BackupAlertProps) =>
  reason === "failed" ? "Everlight: a backup failed" : "Everlight: no backup for over 36 hours";

export function BackupAlertEmail({ reason, error, lastSuccess, adminUrl }: BackupAlertProps) {
  return (
    <EmailLayout
      preview={backupAlertSubject({ reason, error, lastSuccess, adminUrl })}
      why="We send this to every administrator when the site's backups need attention."
    >
      <Text style={text}>
        {reason === "failed" ? "The site's scheduled backup did not finish." : "No backup of the site has finished in the last 36 hours."}{" "}
        {lastSuccess ? `The last good one was made on ${lastSuccess}.` : "No backup has been made yet."}
      </Text>
      {error ? <Text style={text}>What went wrong: {error}</Text> : null}
      <Text style={text}>
        Until one succeeds, what families add is not kept anywhere but the database itself. The backup is tried again within the hour; run{" "}
        <code>npm run backup</code> on the server to try now, and see the last backup on the <Link href={adminUrl}>administrators&apos; dashboard</Link>.
      </Text>
    </EmailLayout>
  );
}
