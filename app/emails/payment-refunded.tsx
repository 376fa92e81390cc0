import { Link, Text } from "@react-email/components";
import { button, EmailLayout, text } from "./layout";
import { OrderLines, type MoneyLines } from "./order-lines";

// A payment the shop refunded by itself instead of making an order: an item sold out while
// the buyer paid, or a second payment for a basket already ordered. Transactional: always sent.

export type PaymentRefundedProps = {
  customerName: string;
  /** Why, in a sentence (SHOP_MESSAGES). */
  reason: string;
  refunded: string;
  paymentId: string;
  isTest: boolean;
  linkUrl: string;
  linkLabel: string;
  supportEmail: string;
} & Omit<MoneyLines, "totalLabel">;

export const paymentRefundedSubject = ({ refunded, isTest }: Pick<PaymentRefundedProps, "refunded" | "isTest">) =>
  `${isTest ? "[Test payment] " : ""}Your Everlight payment of ${refunded} has been refunded`;

export function PaymentRefundedEmail(props: PaymentRefundedProps) {
  return (
    <EmailLayout preview={`${props.refunded} refunded`} why="We send this whenever we refund a payment of yours.">
      <Text style={text}>Dear {props.customerName},</Text>
      <Text style={text}>{props.reason}</Text>
      <OrderLines lines={props.lines} total={props.total} totalLabel="Refunded" />
      <Text style={text}>Payment reference: {props.paymentId}</Text>
      {props.isTest ? <Text style={text}>This was a test payment: no card was charged.</Text> : null}
      <Text style={text}>If anything is unclear, please write to {props.supportEmail} and we will help.</Text>
      <Link href={props.linkUrl} style={button}>
        {props.linkLabel}
      </Link>
    </EmailLayout>
  );
}
