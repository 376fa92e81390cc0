import { Link, Text } from "@react-email/components";
import { button, EmailLayout, text } from "./layout";
import { OrderLines, type MoneyLines } from "./order-lines";

// An order on its way: the carrier and tracking number the administrator entered, with what
// was sent and paid. Transactional: always sent, no unsubscribe link.

export type OrderShippedProps = {
  customerName: string;
  orderNumber: string;
  carrier: string;
  trackingNumber: string;
  shipping: string[];
  paymentId: string;
  isTest: boolean;
  ordersUrl: string;
} & Omit<MoneyLines, "totalLabel">;

export const orderShippedSubject = ({ orderNumber, isTest }: Pick<OrderShippedProps, "orderNumber" | "isTest">) =>
  `${isTest ? "[Test order] " : ""}Your Everlight order ${orderNumber} has shipped`;

export function OrderShippedEmail(props: OrderShippedProps) {
  return (
    <EmailLayout preview={`Order ${props.orderNumber}: ${props.carrier} ${props.trackingNumber}`} why="We send this when an order of yours ships.">
      <Text style={text}>Dear {props.customerName},</Text>
      <Text style={text}>Your order {props.orderNumber} is on its way.</Text>
      <Text style={{ ...text, fontWeight: "bold" }}>
        Carrier: {props.carrier}
        <br />
        Tracking number: {props.trackingNumber}
      </Text>
      <OrderLines lines={props.lines} total={props.total} totalLabel="Total paid" />
      {props.shipping.length ? <Text style={text}>Sending to: {props.shipping.join(", ")}</Text> : null}
      <Text style={text}>Payment reference: {props.paymentId}</Text>
      {props.isTest ? <Text style={text}>This was a test order: no card was charged and nothing is really sent.</Text> : null}
      <Link href={props.ordersUrl} style={button}>
        See your orders
      </Link>
    </EmailLayout>
  );
}
