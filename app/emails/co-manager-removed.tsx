import { Text } from "@react-email/components";
import { EmailLayout, text } from "./layout";

// A co-manager was removed from a memorial by its owner or a manager: a change to what
// they can do should not go unnoticed. Not sent to someone who left by themselves.

export type CoManagerRemovedProps = { name: string; removedBy: string; supportEmail: string };

export const coManagerRemovedSubject = ({ name }: Pick<CoManagerRemovedProps, "name">) => `You no longer help manage the memorial of ${name}`;

export function CoManagerRemovedEmail({ name, removedBy, supportEmail }: CoManagerRemovedProps) {
  return (
    <EmailLayout preview={`${removedBy} removed you from its managers`} why="We send this when someone removes you from the people who manage a memorial.">
      <Text style={text}>Hello,</Text>
      <Text style={text}>
        {removedBy} has removed you from the people who manage the memorial of {name} on Everlight. You can still visit it if it is shared with you, and any
        tributes you wrote stay on it.
      </Text>
      <Text style={text}>
        If you think this was a mistake, ask {removedBy}, or write to {supportEmail}.
      </Text>
    </EmailLayout>
  );
}
