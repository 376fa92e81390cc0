import { Link, Text } from "@react-email/components";
import { button, EmailLayout, text } from "./layout";

export type PasswordResetProps = { firstName: string; resetUrl: string; validMinutes: number };

export const passwordResetSubject = () => "Reset your Everlight password";

export function PasswordResetEmail({ firstName, resetUrl, validMinutes }: PasswordResetProps) {
  return (
    <EmailLayout preview="A link to choose a new password" why="You are receiving this because someone asked to reset the password of your Everlight account.">
      <Text style={text}>Dear {firstName},</Text>
      <Text style={text}>We received a request to reset your password. To choose a new one, follow this link:</Text>
      <Text style={text}>
        <Link href={resetUrl} style={button}>
          Choose a new password
        </Link>
      </Text>
      <Text style={text}>
        The link works once, for the next {validMinutes} minutes. If you did not ask for it, you can ignore this email: your password stays as it is.
      </Text>
    </EmailLayout>
  );
}
