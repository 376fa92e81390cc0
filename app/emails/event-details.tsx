import { Link, Text } from "@react-email/components";
import { text } from "./layout";

// An event's when, where, livestream and note, as both event emails show them.

export type EventDetailsProps = {
  title: string;
  when: string;
  place: string;
  mapUrl: string;
  livestreamUrl: string | null;
  note: string | null;
  memorialUrl: string;
};

export function EventDetails({ title, when, place, mapUrl, livestreamUrl, note, memorialUrl }: EventDetailsProps) {
  return (
    <>
      <Text style={text}>
        <strong>{title}</strong>
        <br />
        {when}
        <br />
        {place} (<Link href={mapUrl}>map</Link>)
      </Text>
      {livestreamUrl ? (
        <Text style={text}>
          Watching from afar: <Link href={livestreamUrl}>the livestream</Link>.
        </Text>
      ) : null}
      {note ? <Text style={{ ...text, whiteSpace: "pre-line" }}>{note}</Text> : null}
      <Text style={text}>
        <Link href={memorialUrl}>Visit the memorial</Link>
      </Text>
    </>
  );
}
