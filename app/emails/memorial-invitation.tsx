import { Link, Text } from "@react-email/components";
import { CO_MANAGER_ROLE_HINTS } from "~/utils/co-managers";
import { EmailLayout, text } from "./layout";

// An invitation to help manage a memorial. The link is the invitation: valid once,
// until expiresOn.

export type MemorialInvitationProps = {
  name: string;
  invitedBy: string;
  role: "editor" | "manager";
  /** Whoever accepts becomes the memorial's successor too. */
  asSuccessor?: boolean;
  invitationUrl: string;
  expiresOn: string;
};

export const memorialInvitationSubject = ({ name }: Pick<MemorialInvitationProps, "name">) => `You are invited to help manage the memorial of ${name}`;

export function MemorialInvitationEmail({ name, invitedBy, role, asSuccessor, invitationUrl, expiresOn }: MemorialInvitationProps) {
  return (
    <EmailLayout
      preview={`${invitedBy} invited you as ${role === "manager" ? "a manager" : "an editor"}`}
      why="We send this when someone who manages a memorial invites you to help."
    >
      <Text style={text}>Hello,</Text>
      <Text style={text}>
        {invitedBy} invited you to help manage the memorial of {name} on Everlight as {role === "manager" ? "a manager" : "an editor"}.{" "}
        {CO_MANAGER_ROLE_HINTS[role]}
        {asSuccessor
          ? ` ${invitedBy} also asks you to be its successor: if they delete their account or are away for a long time, the memorial passes to you instead of being lost.`
          : ""}
      </Text>
      <Text style={text}>
        <Link href={invitationUrl}>Accept or decline the invitation</Link> (you will be asked to sign in or create an account). The link works once and until{" "}
        {expiresOn}.
      </Text>
      <Text style={text}>If you did not expect this, you can ignore this email.</Text>
    </EmailLayout>
  );
}
