import { Button, Text } from "@react-email/components";
import { EventDetails, type EventDetailsProps } from "./event-details";
import { button, EmailLayout, text } from "./layout";

// The link that confirms an answer to a memorial's event, sent to the address the answer gave. Anyone can type
// any address into the reply form, so this email carries nothing the person who typed it wrote (no name, no
// message): only the family's event and the link. The answer counts, or changes, only once the link is used.

export type EventRsvpConfirmProps = EventDetailsProps & { memorialName: string; confirmUrl: string; change: boolean };

export const eventRsvpConfirmSubject = ({ title }: Pick<EventRsvpConfirmProps, "title">) => `Please confirm your reply: ${title}`;

export function EventRsvpConfirmEmail(props: EventRsvpConfirmProps) {
  const { memorialName, confirmUrl, change } = props;
  return (
    <EmailLayout
      preview={`Confirm your reply to the family of ${memorialName}`}
      why="We send this because this address was given when replying to an event on a memorial. If that was not you, there is nothing to do."
    >
      <Text style={text}>
        {change
          ? `Someone asked to change this address's reply to an event for ${memorialName}. Nothing changes unless you confirm it.`
          : `Someone replied to an event for ${memorialName} with this address. The family will count the reply once you confirm it.`}
      </Text>
      <Button href={confirmUrl} style={button}>
        See and confirm the reply
      </Button>
      <Text style={text}>If it was not you, ignore this email: nothing is changed, and we will not write about it again.</Text>
      <EventDetails {...props} />
    </EmailLayout>
  );
}
