import { Link, Text } from "@react-email/components";
import { EmailLayout, text } from "./layout";

export type AccountDeletedProps = { firstName: string; supportEmail: string; purgeDate: string; loginUrl: string };

export const accountDeletedSubject = () => "Your Everlight account has been deleted";

export function AccountDeletedEmail({ firstName, supportEmail, purgeDate, loginUrl }: AccountDeletedProps) {
  return (
    <EmailLayout preview={`You can restore it until ${purgeDate}`} why="We send this to every member whose account is deleted.">
      <Text style={text}>Dear {firstName},</Text>
      <Text style={text}>
        Your Everlight account has been deleted. It is hidden, together with the memorials, photos, videos and tributes it held, and nobody can see them.
      </Text>
      <Text style={text}>
        We keep everything until {purgeDate}. If you did not ask for this, or change your mind, <Link href={loginUrl}>sign in</Link> before then and choose
        Restore my account: everything comes back as it was. After that date it is removed for good. We will remind you a few days before.
      </Text>
      <Text style={text}>If you cannot sign in, write to {supportEmail}.</Text>
      <Text style={text}>Thank you for letting us keep these memories with you.</Text>
    </EmailLayout>
  );
}
