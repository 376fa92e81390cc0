import { Text } from "@react-email/components";
import { EmailLayout, SeeYourPlan, text } from "./layout";

// A plan payment taken: paid in full, or one monthly instalment. Transactional: always sent.

export type PlanReceiptProps = {
  firstName: string;
  planName: string;
  amount: string;
  /** "Paid in full", or "Payment 3 of 36" */
  what: string;
  paidOn: string;
  paymentRef: string;
  /** "Payment 4 (£7.75) is due on March 15, 2026", or null when nothing more is due */
  next: string | null;
  subscriptionUrl: string;
};

export const planReceiptSubject = ({ planName, amount }: Pick<PlanReceiptProps, "planName" | "amount">) => `Your receipt: ${amount} for the ${planName} plan`;

export function PlanReceiptEmail(props: PlanReceiptProps) {
  return (
    <EmailLayout preview={`${props.amount} received for your ${props.planName} plan`} why="We send a receipt for every payment you make.">
      <Text style={text}>Dear {props.firstName},</Text>
      <Text style={text}>Thank you. We have received your payment for the {props.planName} plan.</Text>
      <Text style={text}>
        Amount: {props.amount}
        <br />
        {props.what}
        <br />
        Paid on: {props.paidOn}
        <br />
        Payment reference: {props.paymentRef}
      </Text>
      {props.next ? <Text style={text}>{props.next}</Text> : <Text style={text}>Nothing more is due: your plan is yours for good.</Text>}
      <SeeYourPlan href={props.subscriptionUrl} />
    </EmailLayout>
  );
}
