import { Text } from "@react-email/components";
import { EventDetails, type EventDetailsProps } from "./event-details";
import { EmailLayout, text } from "./layout";

// The family's update to everyone who replied to an event (issue 28 item 4): their subject and words, then
// the event's details as they are now.

export type EventUpdateProps = EventDetailsProps & { memorialName: string; subject: string; body: string };

export const eventUpdateSubject = ({ subject }: Pick<EventUpdateProps, "subject">) => subject;

export function EventUpdateEmail(props: EventUpdateProps) {
  const { memorialName, body } = props;
  return (
    <EmailLayout
      preview={`An update from the family of ${memorialName}`}
      why="We send this because you replied to this event on the memorial, and the family wrote to everyone who did."
    >
      <Text style={text}>The family of {memorialName} writes about an event you replied to:</Text>
      <Text style={{ ...text, whiteSpace: "pre-line" }}>{body}</Text>
      <EventDetails {...props} />
    </EmailLayout>
  );
}
