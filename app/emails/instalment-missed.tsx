import { Text } from "@react-email/components";
import { EmailLayout, SeeYourPlan, text } from "./layout";

export type InstalmentMissedProps = {
  firstName: string;
  planName: string;
  amount: string;
  number: number;
  count: number;
  accessUntil: string;
  subscriptionUrl: string;
};

export const instalmentMissedSubject = ({ planName }: InstalmentMissedProps) => `We could not take your ${planName} payment`;

export function InstalmentMissedEmail({ firstName, planName, amount, number, count, accessUntil, subscriptionUrl }: InstalmentMissedProps) {
  return (
    <EmailLayout preview={`Payment ${number} of ${count} did not go through`} why="We send this to every member whose monthly plan payment could not be taken.">
      <Text style={text}>Dear {firstName},</Text>
      <Text style={text}>
        Payment {number} of {count} for your {planName} plan ({amount}) did not go through. We will try again over the next few days.
      </Text>
      <Text style={text}>
        Your plan stays active until {accessUntil}. If the payment has not gone through by then, you will not be able to create new memorials above the free
        limit or add files to your vault. Nothing you already have is deleted or hidden.
      </Text>
      <Text style={text}>
        <SeeYourPlan href={subscriptionUrl} />
      </Text>
    </EmailLayout>
  );
}
