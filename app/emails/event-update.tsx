import { Link, Text } from "@react-email/components";
import { EventDetails, type EventDetailsProps } from "./event-details";
import { EmailLayout, text } from "./layout";

// The family's update to everyone who confirmed a reply to an event: who writes, their subject and words, the
// event's details as they are now, and how to hear no more about it.

export type EventUpdateProps = EventDetailsProps & { memorialName: string; subject: string; body: string; from: string; manageUrl: string | null };

export const eventUpdateSubject = ({ subject }: Pick<EventUpdateProps, "subject">) => subject;

export function EventUpdateEmail(props: EventUpdateProps) {
  const { memorialName, body, from, manageUrl } = props;
  return (
    <EmailLayout
      preview={`An update from the family of ${memorialName}`}
      why="We send this because you replied to this event on the memorial, and the family wrote to everyone who did."
    >
      <Text style={text}>
        {from}, of the family of {memorialName}, writes about an event you replied to:
      </Text>
      <Text style={{ ...text, whiteSpace: "pre-line" }}>{body}</Text>
      <EventDetails {...props} />
      {manageUrl ? (
        <Text style={text}>
          To hear no more about this event, or to change your reply, <Link href={manageUrl}>open your reply</Link>.
        </Text>
      ) : null}
    </EmailLayout>
  );
}
