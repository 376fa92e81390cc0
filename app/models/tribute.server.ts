import { prisma } from "~/services/db.server";

// Tributes. (The tributes issue adds posting and moderation; the memorial page needs the count now.)

/** Only approved tributes are public and counted (memorial-core.md §4). */
export function countApprovedTributes(memorialId: string) {
  return prisma().tribute.count({ where: { memorialId, isApproved: true } });
}
