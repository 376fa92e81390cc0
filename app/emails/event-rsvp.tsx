import { Text } from "@react-email/components";
import { EventDetails, type EventDetailsProps } from "./event-details";
import { EmailLayout, text } from "./layout";

// A visitor's copy of their answer to a memorial's event: what they told the family, and
// the event's details to keep.

export type EventRsvpProps = EventDetailsProps & { name: string; memorialName: string; partySize: number; message: string | null };

export const eventRsvpSubject = ({ title }: Pick<EventRsvpProps, "title">) => `Your reply: ${title}`;

export function EventRsvpEmail(props: EventRsvpProps) {
  const { name, memorialName, partySize, message } = props;
  return (
    <EmailLayout
      preview={`You told the family of ${memorialName} you are coming`}
      why="We send this because this address was given when replying to an event on a memorial."
    >
      <Text style={text}>Dear {name},</Text>
      <Text style={text}>
        Thank you for letting the family of {memorialName} know that you are coming: {partySize === 1 ? "1 person" : `${partySize} people`}.
        {message ? ` Your message: “${message}”` : ""}
      </Text>
      <EventDetails {...props} />
      <Text style={text}>To change your reply, reply again on the memorial page with this email address: we will ask you to confirm the change here.</Text>
    </EmailLayout>
  );
}
