import { Text } from "@react-email/components";
import { EmailLayout, text } from "./layout";

export type AccountDeletedProps = { firstName: string; supportEmail: string };

export const accountDeletedSubject = () => "Your Everlight account has been deleted";

export function AccountDeletedEmail({ firstName, supportEmail }: AccountDeletedProps) {
  return (
    <EmailLayout preview="Your account and its memorials have been deleted" why="We send this to every member whose account is deleted.">
      <Text style={text}>Dear {firstName},</Text>
      <Text style={text}>Your Everlight account has been deleted, together with the memorials, photos and tributes it held.</Text>
      <Text style={text}>
        If you did not ask for this, or change your mind, write to {supportEmail} within 30 days and we will do our best to restore them.
      </Text>
      <Text style={text}>Thank you for letting us keep these memories with you.</Text>
    </EmailLayout>
  );
}
