import { Link, Text } from "@react-email/components";
import { button, EmailLayout, text } from "./layout";

// Cancelled monthly payments resumed by the member (issue 24 §9). Transactional: always sent.

export type PlanResumedProps = { firstName: string; planName: string; next: string; subscriptionUrl: string };

export const planResumedSubject = ({ planName }: Pick<PlanResumedProps, "planName">) => `Your ${planName} payments are back on`;

export function PlanResumedEmail(props: PlanResumedProps) {
  return (
    <EmailLayout preview={`Your ${props.planName} plan continues`} why="We send this when monthly payments of yours are resumed.">
      <Text style={text}>Dear {props.firstName},</Text>
      <Text style={text}>Your monthly payments for the {props.planName} plan are back on, and your plan continues as before.</Text>
      <Text style={text}>{props.next}</Text>
      <Link href={props.subscriptionUrl} style={button}>
        See your plan
      </Link>
    </EmailLayout>
  );
}
