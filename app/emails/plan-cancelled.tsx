import { Text } from "@react-email/components";
import { EmailLayout, SeeYourPlan, text } from "./layout";

// Monthly payments cancelled by the member. Transactional: always sent.

export type PlanCancelledProps = {
  firstName: string;
  planName: string;
  accessUntil: string;
  /** "£23.25 (3 monthly payments)" */
  paid: string;
  /** What will no longer be taken, "£255.75" */
  left: string;
  purchaseRef: string;
  subscriptionUrl: string;
};

export const planCancelledSubject = ({ planName }: Pick<PlanCancelledProps, "planName">) => `Your ${planName} payments are cancelled`;

export function PlanCancelledEmail(props: PlanCancelledProps) {
  return (
    <EmailLayout preview={`No more payments will be taken for your ${props.planName} plan`} why="We send this when monthly payments of yours are cancelled.">
      <Text style={text}>Dear {props.firstName},</Text>
      <Text style={text}>
        As you asked, no more monthly payments will be taken for your {props.planName} plan. It stays active until {props.accessUntil}; after that the free
        plan&apos;s rules apply to new memorials and vault uploads. Every memorial, tribute and file you have stays exactly as it is.
      </Text>
      <Text style={text}>
        Paid so far: {props.paid}
        <br />
        No longer to be taken: {props.left}
        <br />
        Plan reference: {props.purchaseRef}
      </Text>
      <Text style={text}>Changed your mind? You can resume the payments on your plan page until {props.accessUntil}.</Text>
      <SeeYourPlan href={props.subscriptionUrl} />
    </EmailLayout>
  );
}
