import { Link, Text } from "@react-email/components";
import { button, EmailLayout, text } from "./layout";

// An order an administrator cancelled (issue 19 §5): it was paid, so it has been refunded in full.
// Transactional: always sent, no unsubscribe link.

export type OrderCancelledProps = {
  customerName: string;
  orderNumber: string;
  refunded: string;
  isTest: boolean;
  ordersUrl: string;
  supportEmail: string;
};

export const orderCancelledSubject = ({ orderNumber, isTest }: Pick<OrderCancelledProps, "orderNumber" | "isTest">) =>
  `${isTest ? "[Test order] " : ""}Your Everlight order ${orderNumber} has been cancelled and refunded`;

export function OrderCancelledEmail(props: OrderCancelledProps) {
  return (
    <EmailLayout preview={`Order ${props.orderNumber}: ${props.refunded} refunded`} why="We send this when an order of yours is cancelled.">
      <Text style={text}>Dear {props.customerName},</Text>
      <Text style={text}>
        Your order {props.orderNumber} has been cancelled, and your payment of {props.refunded} has been refunded in full. The refund may
        take a few days to appear on your statement.
      </Text>
      {props.isTest ? <Text style={text}>This was a test order: no card was charged.</Text> : null}
      <Text style={text}>If you did not expect this, please write to {props.supportEmail} and we will help.</Text>
      <Link href={props.ordersUrl} style={button}>
        See your orders
      </Link>
    </EmailLayout>
  );
}
