import { withThousands } from "./text";

// Money: amounts are integer pence from end to end, shown as £ with
// two decimals; the only formatter and the only tax rule live here.

/** £1,234.56 for 123456; a minus sign before the £ for a refund. */
export function formatPence(pence: number): string {
  if (!Number.isSafeInteger(pence)) throw new RangeError(`Not a whole number of pence: ${pence}`);
  const sign = pence < 0 ? "-" : "";
  const abs = Math.abs(pence);
  return `${sign}£${withThousands(Math.floor(abs / 100))}.${String(abs % 100).padStart(2, "0")}`;
}

/** Tax: 8% of the subtotal, in the basket and at checkout. */
export const TAX_PERCENT = 8;

/** The tax on a subtotal, to the nearest penny (half a penny rounds up). */
export function taxOn(subtotalPence: number): number {
  return Math.round((subtotalPence * TAX_PERCENT) / 100);
}

/** Subtotal, tax and total of a basket, all in pence. */
export function basketTotals(subtotalPence: number) {
  const tax = taxOn(subtotalPence);
  return { subtotal: subtotalPence, tax, total: subtotalPence + tax };
}

/** Pounds as typed in a form ("12", "12.5", "12.50", "£1,299.99") to pence; null when it is not an amount. */
export function parsePounds(text: string): number | null {
  const match = /^£?\s*(\d{1,7}(?:,\d{3})*|\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const pounds = Number(match[1].replace(/,/g, ""));
  const pence = Number((match[2] ?? "0").padEnd(2, "0"));
  const total = pounds * 100 + pence;
  return Number.isSafeInteger(total) ? total : null;
}
