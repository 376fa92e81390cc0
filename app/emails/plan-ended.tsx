import { Link, Text } from "@react-email/components";
import { EmailLayout, text } from "./layout";

// A cancelled plan's paid time has run out (a lapse never deletes anything). Transactional: always sent.

export type PlanEndedProps = { firstName: string; planName: string; subscriptionUrl: string };

export const planEndedSubject = ({ planName }: Pick<PlanEndedProps, "planName">) => `Your ${planName} plan has ended: nothing has been deleted`;

export function PlanEndedEmail({ firstName, planName, subscriptionUrl }: PlanEndedProps) {
  return (
    <EmailLayout preview="Your memorials and files stay as they are" why="We send this when a plan you cancelled comes to the end of the time paid for.">
      <Text style={text}>Dear {firstName},</Text>
      <Text style={text}>
        The time paid for on your {planName} plan has run out, as you asked when you cancelled it. Nothing has been deleted: every memorial stays exactly as it
        is, visible to the same people, with its photos, videos and tributes.
      </Text>
      <Text style={text}>
        The free plan&apos;s rules now apply to what is new: memorials beyond the free limit wait for a plan, and your vault takes no new files. You can still
        open and download every file already in it.
      </Text>
      <Text style={text}>
        You can choose a plan again at any time on <Link href={subscriptionUrl}>your plan page</Link>.
      </Text>
    </EmailLayout>
  );
}
