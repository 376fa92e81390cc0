import { Link, Text } from "@react-email/components";
import { EmailLayout, text } from "./layout";

/**
 * `quoted` is what the sender wrote, only when the address is known to be theirs (a member writing from their
 * own account's address): otherwise anyone could have the form mail their words to anyone.
 */
export type ContactReceivedProps = {
  quoted: { name: string; subject: string; message: string } | null;
  supportHours: string;
  replyTime: string;
  helpUrl: string;
};

export const contactReceivedSubject = ({ quoted }: Pick<ContactReceivedProps, "quoted">) =>
  quoted ? `We have your message: ${quoted.subject}` : "We have your message";

const quote = { ...text, borderLeft: "3px solid #d6d3d1", paddingLeft: "12px", color: "#44403c", whiteSpace: "pre-wrap" as const };

/** The acknowledgement sent to whoever used the contact form. */
export function ContactReceivedEmail({ quoted, supportHours, replyTime, helpUrl }: ContactReceivedProps) {
  return (
    <EmailLayout
      preview="Thank you for getting in touch"
      why="We send this to everyone who writes to us through the contact form, so you know your message arrived."
    >
      <Text style={text}>{quoted ? `Dear ${quoted.name},` : "Hello,"}</Text>
      <Text style={text}>
        Thank you for getting in touch. {replyTime} Our support team works {supportHours}; messages sent outside those hours are answered on the next working
        day.
      </Text>
      {quoted ? (
        <>
          <Text style={text}>You wrote, under &ldquo;{quoted.subject}&rdquo;:</Text>
          <Text style={quote}>{quoted.message}</Text>
        </>
      ) : (
        <Text style={text}>
          Someone gave this address on our contact form. We do not repeat what was written, so that the form cannot be used to send anything to anyone.
        </Text>
      )}
      <Text style={text}>
        Many questions are answered in our <Link href={helpUrl}>Help Center</Link>. If you did not write to us, you can ignore this email.
      </Text>
    </EmailLayout>
  );
}
