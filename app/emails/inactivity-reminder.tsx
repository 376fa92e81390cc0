import { Link, Text } from "@react-email/components";
import { EmailLayout, text } from "./layout";

// The owner has not been seen for nearly the period they chose: their memorials with a successor will
// pass to them on handOverDate unless they sign in. Two are sent, a week or more apart.

export type InactivityReminderProps = {
  firstName: string;
  final: boolean;
  lastSeen: string;
  handOverDate: string;
  memorials: { name: string; successor: string }[];
  loginUrl: string;
  settingsUrl: string;
};

export const inactivityReminderSubject = ({ final }: Pick<InactivityReminderProps, "final">) =>
  final ? "Last reminder: your memorials will pass to their successors" : "We have not seen you for a while: your memorials and their successors";

export function InactivityReminderEmail({ firstName, final, lastSeen, handOverDate, memorials, loginUrl, settingsUrl }: InactivityReminderProps) {
  return (
    <EmailLayout
      preview={`Sign in before ${handOverDate} to keep them`}
      why="We send this because you asked us to hand your memorials on to their successors if you are away for a long time."
    >
      <Text style={text}>Dear {firstName},</Text>
      <Text style={text}>
        {final ? "This is our last reminder. " : ""}We have not seen you on Everlight since {lastSeen}. As you asked, on {handOverDate} these memorials will
        pass to the successors you named:
      </Text>
      {memorials.map((m) => (
        <Text key={m.name} style={text}>
          • The memorial of {m.name}, to {m.successor}
        </Text>
      ))}
      <Text style={text}>
        You would stay one of their managers. To keep them as they are, simply <Link href={loginUrl}>sign in</Link> before then. To change when this happens, or
        turn it off, go to your <Link href={settingsUrl}>account settings</Link>.
      </Text>
    </EmailLayout>
  );
}
