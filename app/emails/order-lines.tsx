import { Column, Row, Section, Text } from "@react-email/components";

// The items of an order or a payment and what they came to, as every money email shows them.

export type MoneyLines = { lines: { name: string; quantity: number; lineTotal: string }[]; total: string; totalLabel: string };

/** Rows between the items and the total (a subtotal, the tax), as the receipt shows them. */
type Subtotals = { subtotals?: { label: string; amount: string }[] };

const cell = { fontSize: "15px", lineHeight: "24px", margin: 0 };
const right = { ...cell, textAlign: "right" as const };

export function OrderLines({ lines, subtotals = [], total, totalLabel }: MoneyLines & Subtotals) {
  return (
    <Section style={{ margin: "0 0 16px" }}>
      {lines.map((line, i) => (
        <Row key={i}>
          <Column>
            <Text style={cell}>
              {line.quantity} × {line.name}
            </Text>
          </Column>
          <Column>
            <Text style={right}>{line.lineTotal}</Text>
          </Column>
        </Row>
      ))}
      {subtotals.map((row) => (
        <Row key={row.label}>
          <Column>
            <Text style={cell}>{row.label}</Text>
          </Column>
          <Column>
            <Text style={right}>{row.amount}</Text>
          </Column>
        </Row>
      ))}
      <Row>
        <Column>
          <Text style={{ ...cell, fontWeight: "bold" }}>{totalLabel}</Text>
        </Column>
        <Column>
          <Text style={{ ...right, fontWeight: "bold" }}>{total}</Text>
        </Column>
      </Row>
    </Section>
  );
}
