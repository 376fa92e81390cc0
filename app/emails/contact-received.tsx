import { Link, Text } from "@react-email/components";
import { EmailLayout, text } from "./layout";

export type ContactReceivedProps = { name: string; subject: string; message: string; supportHours: string; replyTime: string; helpUrl: string };

export const contactReceivedSubject = ({ subject }: Pick<ContactReceivedProps, "subject">) => `We have your message: ${subject}`;

const quote = { ...text, borderLeft: "3px solid #cbd5e1", paddingLeft: "12px", color: "#334155", whiteSpace: "pre-wrap" as const };

/** The acknowledgement sent to whoever used the contact form (issue 18). */
export function ContactReceivedEmail({ name, subject, message, supportHours, replyTime, helpUrl }: ContactReceivedProps) {
  return (
    <EmailLayout preview="Thank you for getting in touch" why="We send this to everyone who writes to us through the contact form, so you know your message arrived.">
      <Text style={text}>Dear {name},</Text>
      <Text style={text}>
        Thank you for getting in touch. {replyTime} Our support team works {supportHours}; messages sent outside those hours are
        answered on the next working day.
      </Text>
      <Text style={text}>You wrote, under &ldquo;{subject}&rdquo;:</Text>
      <Text style={quote}>{message}</Text>
      <Text style={text}>
        Many questions are answered in our <Link href={helpUrl}>Help Center</Link>. If you did not write to us, you can ignore this
        email.
      </Text>
    </EmailLayout>
  );
}
