import { Link, Text } from "@react-email/components";
import { button, EmailLayout, text } from "./layout";
import { OrderLines } from "./order-lines";

// The order confirmation: what was bought, for how much, where it goes, and what happens
// next (the confirmation page's What's Next list). Transactional: always sent, no unsubscribe link.

export type OrderConfirmationProps = {
  customerName: string;
  orderNumber: string;
  paymentId: string;
  isTest: boolean;
  lines: { name: string; quantity: number; lineTotal: string }[];
  subtotal: string;
  taxLabel: string;
  tax: string;
  total: string;
  shipping: string[];
  whatsNext: readonly string[];
  ordersUrl: string;
};

export const orderConfirmationSubject = ({ orderNumber, isTest }: Pick<OrderConfirmationProps, "orderNumber" | "isTest">) =>
  `${isTest ? "[Test order] " : ""}Your Everlight order ${orderNumber} is confirmed`;

const notice = { ...text, backgroundColor: "#fef3c7", border: "1px solid #fcd34d", borderRadius: "6px", padding: "8px 12px" };

export function OrderConfirmationEmail(props: OrderConfirmationProps) {
  return (
    <EmailLayout preview={`Order ${props.orderNumber}: ${props.total}`} why="We send this to confirm every order placed on Everlight.">
      <Text style={text}>Dear {props.customerName},</Text>
      <Text style={text}>Thank you for your order. We have received your payment and your order {props.orderNumber} is confirmed.</Text>
      {props.isTest ? <Text style={notice}>This was a test order: no card was charged and nothing will be sent.</Text> : null}
      <OrderLines
        lines={props.lines}
        subtotals={[
          { label: "Subtotal", amount: props.subtotal },
          { label: props.taxLabel, amount: props.tax },
        ]}
        total={props.total}
        totalLabel="Total paid"
      />
      <Text style={text}>Sending to: {props.shipping.join(", ")}</Text>
      <Text style={text}>Payment reference: {props.paymentId}</Text>
      <Text style={{ ...text, fontWeight: "bold", marginBottom: "4px" }}>What&apos;s next</Text>
      {props.whatsNext.map((line) => (
        <Text key={line} style={{ ...text, margin: "0 0 4px" }}>
          • {line}
        </Text>
      ))}
      <Text style={{ ...text, marginTop: "16px" }}>
        <Link href={props.ordersUrl} style={button}>
          See your orders
        </Link>
      </Text>
    </EmailLayout>
  );
}
