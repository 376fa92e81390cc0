import { Link, Text } from "@react-email/components";
import { EmailLayout, text } from "./layout";

export type PlanLapsedProps = { firstName: string; planName: string; subscriptionUrl: string };

export const planLapsedSubject = ({ planName }: PlanLapsedProps) => `Your ${planName} plan is paused`;

export function PlanLapsedEmail({ firstName, planName, subscriptionUrl }: PlanLapsedProps) {
  return (
    <EmailLayout preview="A monthly payment was missed" why="We send this to every member whose monthly plan pauses after a missed payment.">
      <Text style={text}>Dear {firstName},</Text>
      <Text style={text}>
        We could not take a monthly payment for your {planName} plan, so it is paused: the free plan&apos;s rules now apply to new memorials, and your vault
        takes no new files. Nothing has been deleted: every memorial stays exactly as it is, visible to the same people, and you can still open and download
        every file in your vault.
      </Text>
      <Text style={text}>
        You can choose a plan again at any time on <Link href={subscriptionUrl}>your plan page</Link>.
      </Text>
    </EmailLayout>
  );
}
