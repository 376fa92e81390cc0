import { Link, Text } from "@react-email/components";
import { EmailLayout, text } from "./layout";

// A deleted account came back: always sent, so that a restore the member did not make is noticed.

export type AccountRestoredProps = { firstName: string; byAdmin: boolean; myMemorialsUrl: string; supportEmail: string };

export const accountRestoredSubject = () => "Your Everlight account has been restored";

export function AccountRestoredEmail({ firstName, byAdmin, myMemorialsUrl, supportEmail }: AccountRestoredProps) {
  return (
    <EmailLayout preview="Your account and its memorials are back" why="We send this whenever a deleted account is restored.">
      <Text style={text}>Dear {firstName},</Text>
      <Text style={text}>
        {byAdmin ? "Our support team has restored your Everlight account" : "Your Everlight account has been restored"}, with the memorials, photos, videos and
        tributes that were deleted with it. They are visible again to the same people as before.
      </Text>
      <Text style={text}>
        You can see them on <Link href={myMemorialsUrl}>My Memorials</Link>. If you did not expect this, write to {supportEmail}.
      </Text>
    </EmailLayout>
  );
}
