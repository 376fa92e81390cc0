import { Link, Text } from "@react-email/components";
import { button, EmailLayout, text } from "./layout";
import { OrderLines, type MoneyLines } from "./order-lines";

// An order an administrator cancelled: paid, so refunded in full, with the items,
// the amount and the payment reference. Transactional: always sent, no unsubscribe link.

export type OrderCancelledProps = {
  customerName: string;
  orderNumber: string;
  /** The amount refunded, or null for an order that had no payment to refund. */
  refunded: string | null;
  paymentId: string;
  isTest: boolean;
  ordersUrl: string;
  supportEmail: string;
} & Omit<MoneyLines, "totalLabel">;

export const orderCancelledSubject = ({ orderNumber, isTest, refunded }: Pick<OrderCancelledProps, "orderNumber" | "isTest" | "refunded">) =>
  `${isTest ? "[Test order] " : ""}Your Everlight order ${orderNumber} has been cancelled${refunded ? " and refunded" : ""}`;

export function OrderCancelledEmail(props: OrderCancelledProps) {
  return (
    <EmailLayout
      preview={`Order ${props.orderNumber}: ${props.refunded ? `${props.refunded} refunded` : "cancelled"}`}
      why="We send this when an order of yours is cancelled."
    >
      <Text style={text}>Dear {props.customerName},</Text>
      {props.refunded ? (
        <Text style={text}>
          Your order {props.orderNumber} has been cancelled, and your payment of {props.refunded} has been refunded in full. The refund may take a few days to
          appear on your statement.
        </Text>
      ) : (
        <Text style={text}>Your order {props.orderNumber} has been cancelled. Nothing was charged for it.</Text>
      )}
      <OrderLines lines={props.lines} total={props.total} totalLabel={props.refunded ? "Refunded" : "Order total"} />
      {props.paymentId ? <Text style={text}>Payment reference: {props.paymentId}</Text> : null}
      {props.isTest ? <Text style={text}>This was a test order: no card was charged.</Text> : null}
      <Text style={text}>If you did not expect this, please write to {props.supportEmail} and we will help.</Text>
      <Link href={props.ordersUrl} style={button}>
        See your orders
      </Link>
    </EmailLayout>
  );
}
