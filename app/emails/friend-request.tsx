import { Link, Text } from "@react-email/components";
import { button, EmailLayout, text } from "./layout";

export type FriendRequestProps = { firstName: string; senderName: string; requestsUrl: string; unsubscribeUrl: string };

export const friendRequestSubject = ({ senderName }: Pick<FriendRequestProps, "senderName">) => `${senderName} would like to be your friend on Everlight`;

export function FriendRequestEmail({ firstName, senderName, requestsUrl, unsubscribeUrl }: FriendRequestProps) {
  return (
    <EmailLayout
      preview={`${senderName} sent you a friend request`}
      unsubscribeUrl={unsubscribeUrl}
      why="You are receiving this because you chose to hear about friend requests (Account → Notifications)."
    >
      <Text style={text}>Dear {firstName},</Text>
      <Text style={text}>
        {senderName} has sent you a friend request on Everlight. Friends can see each other&apos;s memorials that are shared with friends only.
      </Text>
      <Text style={text}>
        <Link href={requestsUrl} style={button}>
          Accept or reject
        </Link>
      </Text>
      <Text style={text}>If you do not know {senderName}, you can simply reject the request.</Text>
    </EmailLayout>
  );
}
