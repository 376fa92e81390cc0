import { prisma } from "~/services/db.server";

// The basket. (The shop issue adds the rest; the navigation bar needs the count now.)

/** How many items are in the user's basket: the sum of quantities. */
export async function countCartItems(userId: string): Promise<number> {
  const { _sum } = await prisma().cartItem.aggregate({ where: { userId }, _sum: { quantity: true } });
  return _sum.quantity ?? 0;
}
