import { Text } from "@react-email/components";
import { EmailLayout, SeeYourPlan, text } from "./layout";

// Cancelled monthly payments resumed by the member. Transactional: always sent.

export type PlanResumedProps = {
  firstName: string;
  planName: string;
  /** "Payment 4 of 36 (£7.75) is due on March 15, 2026." */
  next: string;
  /** "£23.25 (3 monthly payments)" */
  paid: string;
  /** What is still to be paid, "£255.75" */
  left: string;
  purchaseRef: string;
  subscriptionUrl: string;
};

export const planResumedSubject = ({ planName }: Pick<PlanResumedProps, "planName">) => `Your ${planName} payments are back on`;

export function PlanResumedEmail(props: PlanResumedProps) {
  return (
    <EmailLayout preview={`Your ${props.planName} plan continues`} why="We send this when monthly payments of yours are resumed.">
      <Text style={text}>Dear {props.firstName},</Text>
      <Text style={text}>Your monthly payments for the {props.planName} plan are back on, and your plan continues as before.</Text>
      <Text style={text}>
        {props.next}
        <br />
        Paid so far: {props.paid}
        <br />
        Still to pay: {props.left}
        <br />
        Plan reference: {props.purchaseRef}
      </Text>
      <SeeYourPlan href={props.subscriptionUrl} />
    </EmailLayout>
  );
}
