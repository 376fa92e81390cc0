import { Link, Text } from "@react-email/components";
import { EmailLayout, text } from "./layout";

// The owner named this co-manager the memorial's successor.

export type SuccessorNamedProps = { firstName: string; name: string; owner: string; managersUrl: string };

export const successorNamedSubject = ({ name }: Pick<SuccessorNamedProps, "name">) => `You are the successor of the memorial of ${name}`;

export function SuccessorNamedEmail({ firstName, name, owner, managersUrl }: SuccessorNamedProps) {
  return (
    <EmailLayout preview={`${owner} asked you to look after it one day`} why="We send this when a memorial's owner names you its successor.">
      <Text style={text}>Dear {firstName},</Text>
      <Text style={text}>
        {owner} has named you the successor of the memorial of {name} on Everlight. If {owner} deletes their account, or is not seen for a long time, the
        memorial will pass to you, with its photos, videos and tributes, instead of going with their account. We will tell you by email when that happens.
      </Text>
      <Text style={text}>
        There is nothing to do now. You can see who manages the memorial on <Link href={managersUrl}>its people page</Link>; if you would rather not be the
        successor, ask {owner}, or leave the memorial there.
      </Text>
    </EmailLayout>
  );
}
