import { Link, Text } from "@react-email/components";
import { EmailLayout, text } from "./layout";

// A memorial passed to its successor: to the successor, who now owns it, and, when
// the owner was only away, to the previous owner, who stays a manager.

export type MemorialHandedOverProps =
  | { audience: "successor"; firstName: string; name: string; previousOwner: string; reason: "account-deleted" | "absent"; memorialUrl: string }
  | { audience: "previous-owner"; firstName: string; name: string; successor: string; memorialUrl: string };

export const memorialHandedOverSubject = (props: MemorialHandedOverProps) =>
  props.audience === "successor" ? `The memorial of ${props.name} is now in your care` : `The memorial of ${props.name} has passed to ${props.successor}`;

export function MemorialHandedOverEmail(props: MemorialHandedOverProps) {
  return (
    <EmailLayout preview={memorialHandedOverSubject(props)} why="We send this when a memorial passes from its owner to the successor they named.">
      <Text style={text}>Dear {props.firstName},</Text>
      {props.audience === "successor" ? (
        <Text style={text}>
          {props.reason === "absent"
            ? `${props.previousOwner} has not been seen on Everlight for the time they chose, so the memorial of ${props.name} has passed to you, as they asked.`
            : `${props.previousOwner} has deleted their Everlight account and, as they asked, the memorial of ${props.name} has passed to you instead of going with it.`}{" "}
          You are now its owner: you can edit it, approve tributes, decide who can see it, take a copy of it and name your own successor. Nothing in it has
          changed.
        </Text>
      ) : (
        <Text style={text}>
          As you asked, because we had not seen you for a while, the memorial of {props.name} has passed to {props.successor}. You are still one of its
          managers, and nothing in it has changed.
        </Text>
      )}
      <Text style={text}>
        <Link href={props.memorialUrl}>Open the memorial</Link>
      </Text>
    </EmailLayout>
  );
}
