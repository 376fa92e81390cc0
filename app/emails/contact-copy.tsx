import { Text } from "@react-email/components";
import { EmailLayout, text } from "./layout";

export type ContactCopyProps = { name: string; email: string; subject: string; message: string; type: string; member: boolean; receivedAt: string };

export const contactCopySubject = ({ type, subject }: Pick<ContactCopyProps, "type" | "subject">) => `[Contact: ${type}] ${subject}`;

const label = { ...text, margin: "0 0 4px", fontSize: "14px", color: "#57534e" };
const quote = { ...text, borderLeft: "3px solid #d6d3d1", paddingLeft: "12px", whiteSpace: "pre-wrap" as const };

/** The copy of a contact message for the support address; replying answers the sender. */
export function ContactCopyEmail({ name, email, subject, message, type, member, receivedAt }: ContactCopyProps) {
  return (
    <EmailLayout preview={`${name} wrote about ${subject}`} why="A copy of every message sent through the contact form goes to the support address.">
      <Text style={label}>From</Text>
      <Text style={text}>
        {name} &lt;{email}&gt; {member ? "(a signed-in member)" : "(a visitor)"}
      </Text>
      <Text style={label}>Type and time</Text>
      <Text style={text}>
        {type}, {receivedAt}
      </Text>
      <Text style={label}>Subject</Text>
      <Text style={text}>{subject}</Text>
      <Text style={label}>Message</Text>
      <Text style={quote}>{message}</Text>
    </EmailLayout>
  );
}
