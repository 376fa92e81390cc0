import { Link, Text } from "@react-email/components";
import { EmailLayout, text } from "./layout";

export type PasswordChangedProps = { firstName: string; forgotUrl: string };

export const passwordChangedSubject = () => "Your Everlight password was changed";

export function PasswordChangedEmail({ firstName, forgotUrl }: PasswordChangedProps) {
  return (
    <EmailLayout preview="Your password was just changed" why="We send this to every member whose password changes, to keep accounts safe.">
      <Text style={text}>Dear {firstName},</Text>
      <Text style={text}>The password of your Everlight account was just changed, and you were signed out everywhere else.</Text>
      <Text style={text}>
        If that was you, there is nothing more to do. If it was not, please <Link href={forgotUrl}>reset your password now</Link> and tell us by replying to
        this email.
      </Text>
    </EmailLayout>
  );
}
