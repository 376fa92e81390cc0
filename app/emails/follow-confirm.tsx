import { Link, Text } from "@react-email/components";
import { EmailLayout, text } from "./layout";

// A visitor asked to follow a memorial: the one email sent before they confirm.

export type FollowConfirmProps = { name: string; confirmUrl: string; expiresOn: string };

export const followConfirmSubject = ({ name }: Pick<FollowConfirmProps, "name">) => `Confirm that you want to follow the memorial of ${name}`;

export function FollowConfirmEmail({ name, confirmUrl, expiresOn }: FollowConfirmProps) {
  return (
    <EmailLayout
      preview={`One step left to follow the memorial of ${name}`}
      why="We send this once, because this address was typed into the memorial's Follow form."
    >
      <Text style={text}>Hello,</Text>
      <Text style={text}>
        Someone, we hope you, asked to follow the memorial of {name} on Everlight with this address. Followers get an email, at most once a day, when new
        tributes or photos appear.
      </Text>
      <Text style={text}>
        <Link href={confirmUrl}>Confirm that you want to follow</Link>. The link works until {expiresOn}.
      </Text>
      <Text style={text}>If it was not you, ignore this email: we will not write to you again.</Text>
    </EmailLayout>
  );
}
