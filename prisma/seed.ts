import type { PrismaClient } from "../app/generated/prisma/client";
import { hashPassword } from "../app/services/password.server";
import { demoMemorials, demoNews, demoProducts, type DemoOwner } from "./seed-data";

// Demo data for a fresh install: three accounts, memorials of every visibility with tributes,
// products in the eight admin categories and a few news articles. Loaded only into an empty
// database (no users), so it can never double-load or mix with real data.

export const demoAccounts: Record<DemoOwner, { email: string; password: string; firstName: string; lastName: string; isAdmin: boolean; role: string }> = {
  admin: { email: "admin@everlight.test", password: "AdminDemo123", firstName: "Ada", lastName: "Admin", isAdmin: true, role: "Administrator" },
  alice: { email: "alice@everlight.test", password: "AliceDemo123", firstName: "Alice", lastName: "Morgan", isAdmin: false, role: "Member" },
  bob: { email: "bob@everlight.test", password: "BobDemo123", firstName: "Bob", lastName: "Hughes", isAdmin: false, role: "Member" },
};

export type SeedResult = { loaded: true; accounts: { role: string; email: string; password: string }[] } | { loaded: false; reason: string };

const DAY = 24 * 60 * 60 * 1000;

export async function seedDemoData(prisma: PrismaClient, now = new Date()): Promise<SeedResult> {
  if ((await prisma.user.count()) > 0) {
    return { loaded: false, reason: "The database already has users; demo data is only loaded into an empty database." };
  }
  const hashes = await Promise.all(Object.values(demoAccounts).map((a) => hashPassword(a.password)));
  await prisma.$transaction(
    async (tx) => {
      const ids = {} as Record<DemoOwner, string>;
      const owners = Object.keys(demoAccounts) as DemoOwner[];
      for (const [i, key] of owners.entries()) {
        const { email, firstName, lastName, isAdmin } = demoAccounts[key];
        const user = await tx.user.create({
          data: { email, firstName, lastName, isAdmin, password: hashes[i], createdAt: new Date(now.getTime() - 400 * DAY) },
        });
        ids[key] = user.id;
      }
      // Alice and Bob are friends, so Bob sees Alice's friends-only memorials. A friendship is stored in
      // both directions, making "friends of X" one indexed lookup.
      await tx.friendship.createMany({
        data: [
          { userId: ids.alice, friendId: ids.bob },
          { userId: ids.bob, friendId: ids.alice },
        ],
      });
      for (const m of demoMemorials) {
        const createdAt = new Date(now.getTime() - m.daysAgo * DAY);
        await tx.memorial.create({
          data: {
            userId: ids[m.owner],
            title: m.title,
            firstName: m.firstName,
            lastName: m.lastName,
            dateOfBirth: m.dateOfBirth ? new Date(`${m.dateOfBirth}T00:00:00Z`) : null,
            dateOfPassing: m.dateOfPassing ? new Date(`${m.dateOfPassing}T00:00:00Z`) : null,
            biography: m.biography,
            profileImageUrl: m.portrait,
            visibility: m.visibility,
            isPublished: m.isPublished,
            viewCount: m.viewCount,
            createdAt,
            updatedAt: createdAt,
            tributes: {
              create: m.tributes.map((t) => ({
                authorName: t.authorName,
                authorEmail: t.authorEmail,
                content: t.content,
                isApproved: t.isApproved,
                createdAt: new Date(now.getTime() - t.daysAgo * DAY),
              })),
            },
          },
        });
      }
      await tx.product.createMany({ data: demoProducts });
      await tx.newsArticle.createMany({
        data: demoNews.map((n) => ({ ...n, publishedAt: new Date(n.publishedAt) })),
      });
    },
    { timeout: 60_000 },
  );
  return {
    loaded: true,
    accounts: Object.values(demoAccounts).map(({ role, email, password }) => ({ role, email, password })),
  };
}

// `npm run db:seed`: migrate, then seed, on the configured database.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { getDatabase, closeDatabase } = await import("../app/services/db.server");
  const { migrate } = await import("../app/services/migrate.server");
  const db = getDatabase();
  await migrate(db.sql);
  const result = await seedDemoData(db.prisma);
  if (result.loaded) {
    console.log("Demo data loaded. Sign in with:");
    for (const a of result.accounts) console.log(`  ${a.role.padEnd(13)} ${a.email}  /  ${a.password}`);
  } else {
    console.log(`Demo data not loaded: ${result.reason}`);
  }
  await closeDatabase();
}
