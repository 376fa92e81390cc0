import { randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import { createCookie, type Cookie } from "react-router";
import type { Page } from "@playwright/test";
import { hashPassword } from "../app/services/password.server";

// Test data written straight into the e2e server's database (STYLE.md: fixtures create users and
// signed-in sessions directly, so only the sign-in journey itself clicks through the form).

export const TEST_PASSWORD = "Correct-Horse-9";
let passwordHash: Promise<string> | undefined;

let pool: pg.Pool | undefined;
export function db(): pg.Pool {
  const url = process.env.E2E_DATABASE_URL;
  if (!url) throw new Error("E2E_DATABASE_URL is not set: these tests need the e2e server on PostgreSQL.");
  pool ??= new pg.Pool({ connectionString: url, max: 2 });
  return pool;
}

export type TestUser = { id: string; email: string; firstName: string; lastName: string; password: string; isAdmin: boolean };

export async function createTestUser(overrides: Partial<Pick<TestUser, "firstName" | "lastName" | "isAdmin" | "email">> = {}): Promise<TestUser> {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const user = {
    id: randomUUID(),
    email: overrides.email ?? `user-${randomBytes(6).toString("hex")}@example.com`,
    firstName: overrides.firstName ?? "Test",
    lastName: overrides.lastName ?? "Member",
    isAdmin: overrides.isAdmin ?? false,
    password: TEST_PASSWORD,
  };
  await db().query(
    `INSERT INTO users (id, email, "firstName", "lastName", password, "isAdmin") VALUES ($1, $2, $3, $4, $5, $6)`,
    [user.id, user.email, user.firstName, user.lastName, await passwordHash, user.isAdmin],
  );
  return user;
}

export async function deleteTestUser(user: { id: string }) {
  await db().query(`DELETE FROM users WHERE id = $1`, [user.id]);
}

let sessionCookie: Cookie | undefined;
function cookie() {
  const secret = process.env.E2E_SESSION_SECRET;
  if (!secret) throw new Error("E2E_SESSION_SECRET is not set");
  sessionCookie ??= createCookie("__session", { secrets: [secret], httpOnly: true, sameSite: "lax", path: "/" });
  return sessionCookie;
}

/** A session row for the user, and the signed cookie value that names it. */
export async function createTestSession(user: { id: string }) {
  const sid = randomBytes(32).toString("base64url");
  await db().query(`INSERT INTO sessions (sid, sess, expire, "userId") VALUES ($1, $2, now() + interval '1 day', $3)`, [
    sid,
    JSON.stringify({ userId: user.id }),
    user.id,
  ]);
  const header = await cookie().serialize(sid);
  return { sid, value: decodeURIComponent(header.split(";")[0].split("=").slice(1).join("=")) };
}

/** Signs the page's browser context in as the user, without the form. */
export async function loginAs(page: Page, user: { id: string }) {
  const { value } = await createTestSession(user);
  const url = new URL(process.env.E2E_BASE_URL!);
  await page.context().addCookies([{ name: "__session", value, domain: url.hostname, path: "/", httpOnly: true, sameSite: "Lax" }]);
}

export type TestMemorial = { id: string; firstName: string; lastName: string };

/** A memorial of the user's, straight into the database; the names are unique unless given. */
export async function createTestMemorial(
  user: { id: string },
  fields: { firstName?: string; lastName?: string; visibility?: "public" | "friends" | "private"; isPublished?: boolean; createdAt?: Date } = {},
): Promise<TestMemorial> {
  const firstName = fields.firstName ?? `Ada${randomBytes(3).toString("hex")}`;
  const lastName = fields.lastName ?? "Testmemorial";
  const { rows } = await db().query(
    `INSERT INTO memorials ("userId", title, "firstName", "lastName", visibility, "isPublished", "createdAt")
     VALUES ($1, $2, $3, $4, $5, $6, COALESCE($7, now())) RETURNING id`,
    [user.id, `${firstName} ${lastName}`, firstName, lastName, fields.visibility ?? "public", fields.isPublished ?? true, fields.createdAt ?? null],
  );
  return { id: rows[0].id, firstName, lastName };
}

/** A tribute on a memorial, pending unless approved. */
export async function createTestTribute(memorial: { id: string }, fields: { authorName?: string; content?: string; isApproved?: boolean } = {}) {
  const { rows } = await db().query(
    `INSERT INTO tributes ("memorialId", "authorName", content, "isApproved") VALUES ($1, $2, $3, $4) RETURNING id`,
    [memorial.id, fields.authorName ?? "Tess Tribute", fields.content ?? "A memory worth keeping.", fields.isApproved ?? false],
  );
  return { id: rows[0].id as string };
}
