import { Text } from "@react-email/components";
import { EmailLayout, SeeYourPlan, text } from "./layout";

// A plan payment we gave back by ourselves: a second payment for a plan already paid, a
// payment the member's plan had overtaken, or the part of a payment above what the plan cost them by then.

export type PlanRefundProps = {
  firstName: string;
  planName: string;
  amount: string;
  why: string;
  paymentRef: string;
  refundRef: string;
  subscriptionUrl: string;
};

export const planRefundSubject = ({ amount }: Pick<PlanRefundProps, "amount">) => `We have refunded ${amount} to you`;

export function PlanRefundEmail(props: PlanRefundProps) {
  return (
    <EmailLayout preview={`${props.amount} refunded`} why="We send this whenever we refund a payment of yours.">
      <Text style={text}>Dear {props.firstName},</Text>
      <Text style={text}>{props.why}</Text>
      <Text style={text}>
        We have refunded {props.amount} to the card you paid with. It may take a few days to appear on your statement.
        <br />
        Plan: {props.planName}
        <br />
        Payment reference: {props.paymentRef}
        <br />
        Refund reference: {props.refundRef}
      </Text>
      <SeeYourPlan href={props.subscriptionUrl} />
    </EmailLayout>
  );
}
