import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import { createTestMemorial, createTestUser, db, deleteTestUser, loginAs, type TestMemorial, type TestUser } from "./db";
import { anotherPersonsPage, expect, expectAccessible, test, toast } from "./fixtures";
import { linkTo, nextMailTo, countMailTo } from "./mail";

// Friends: two members find each other by email, ask, answer, and the friends-only memorial
// of one opens to the other at once (page and file) and closes again when the friendship ends. Reject,
// cancel, a request that was withdrawn meanwhile, and the search that never tells whether an address
// has an account. JavaScript on and off.

/** A second person, signed in, in a browser of their own. */
async function signedInPage(browser: Browser, user: TestUser) {
  const page = await anotherPersonsPage(browser);
  await loginAs(page, user);
  return page;
}

/** A friends-only memorial of `owner`'s with one stored photo, as an upload would leave it on disk. */
async function friendsOnlyMemorial(owner: TestUser): Promise<TestMemorial & { photo: string }> {
  const memorial = await createTestMemorial(owner, { firstName: `Morag${randomBytes(3).toString("hex")}`, lastName: "Sinclair", visibility: "friends" });
  const key = `memorials/${memorial.id}/e2e/photo.webp`;
  const file = path.join(process.env.E2E_DATA_DIR!, "uploads", ...key.split("/"));
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, Buffer.from("RIFF\x1a\x00\x00\x00WEBPVP8 "));
  writeFileSync(`${file}.meta.json`, JSON.stringify({ contentType: "image/webp" }));
  return { ...memorial, photo: `/media/${key}` };
}

/** What `viewer` gets for the memorial's page and its photo: open (200) or closed (403 page, 404 file). */
async function expectMemorial(viewer: Page, memorial: TestMemorial & { photo: string }, open: boolean) {
  const response = await viewer.goto(`/memorials/${memorial.id}`);
  if (open) {
    expect(response?.status()).toBe(200);
    await expect(viewer.getByRole("heading", { level: 1 })).toContainText(memorial.firstName);
  } else {
    expect(response?.status()).toBe(403);
    await expect(viewer.getByRole("heading", { name: "Friends Only Memorial" })).toBeVisible();
  }
  expect((await viewer.request.get(memorial.photo)).status()).toBe(open ? 200 : 404);
}

async function search(page: Page, email: string) {
  await page.goto("/friends/find");
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Search" }).click();
}

const status = (page: Page) => page.getByTestId("friendship-status");

let other: TestUser;
test.beforeEach(async () => {
  other = await createTestUser({ firstName: "Bryony", lastName: `Hale${randomBytes(2).toString("hex")}` });
});
test.afterEach(async () => {
  await deleteTestUser(other);
});

test("two members become friends: the friends-only memorial opens to the friend, and closes when one removes the other", async ({ page, browser, member }) => {
  test.setTimeout(90_000);
  const memorial = await friendsOnlyMemorial(other);
  await loginAs(page, member);
  await expectMemorial(page, memorial, false);
  // The lock panel points a signed-in member to the way in.
  await page.getByRole("link", { name: "Find Friends" }).click();
  await expect(page).toHaveURL(/\/friends\/find$/);
  await expectAccessible(page);

  const mailsBefore = countMailTo(other.email);
  // An address as people type it: capitals and spaces around it still find the member.
  await search(page, `  ${other.email.toUpperCase()} `);
  await expect(page.getByRole("heading", { name: `Bryony ${other.lastName}` })).toBeVisible();
  await expect(status(page)).toHaveText("Not friends yet");
  await page.getByRole("button", { name: `Send friend request (Bryony ${other.lastName})` }).click();
  await expect(toast(page)).toContainText("Friend request sent");
  // The member stays on the search, which now shows where the two stand.
  await expect(status(page)).toHaveText("Request sent, waiting for an answer");
  await expect(page.getByRole("button", { name: /^Cancel request/ })).toBeVisible();

  // The other member hears of it by email and follows its link.
  const mail = await nextMailTo(other.email, mailsBefore);
  expect(mail.subject).toBe(`${member.firstName} ${member.lastName} would like to be your friend on Everlight`);
  const friend = await signedInPage(browser, other);
  await friend.goto(linkTo(mail, "/friends/requests"));
  await expect(friend.getByRole("link", { name: "Requests (1)" })).toBeVisible();
  const waiting = friend.getByRole("region", { name: "Waiting for your answer" });
  await expect(waiting.getByRole("heading", { name: `${member.firstName} ${member.lastName}` })).toBeVisible();
  await expectAccessible(friend);
  await waiting.getByRole("button", { name: /^Accept/ }).click();
  await expect(toast(friend)).toContainText("Friend request accepted");
  await expect(friend.getByRole("link", { name: "Requests (0)" })).toBeVisible();
  await expect(friend.getByRole("link", { name: "My Friends (1)" })).toBeVisible();

  // At once: the page and its photo open for the new friend.
  await expectMemorial(page, memorial, true);

  // Removing asks first, in place (a disclosure, so it works without JavaScript).
  await friend.goto("/friends");
  const friendRow = friend.getByRole("listitem").filter({ hasText: member.email });
  await expect(friendRow).toContainText("Friends since");
  await friendRow.locator("summary", { hasText: "Remove" }).click();
  await expect(friendRow).toContainText(`Remove ${member.firstName} ${member.lastName} from your friends?`);
  await expectAccessible(friend);
  await friendRow.getByRole("button", { name: /^Remove friend/ }).click();
  await expect(toast(friend)).toContainText("Friend removed");
  await expect(friend.getByText("You have no friends on Everlight yet.")).toBeVisible();
  await expect(friend.getByRole("link", { name: "My Friends (0)" })).toBeVisible();
  await friend.context().close();

  // And closed again for the former friend: the page, and the photo.
  await expectMemorial(page, memorial, false);
  const { rows } = await db().query(`SELECT count(*)::int AS n FROM friendships WHERE "userId" IN ($1, $2)`, [member.id, other.id]);
  expect(rows[0].n).toBe(0);
});

test("a request can be cancelled by its sender or rejected by its receiver, and an answer to a withdrawn request says so", async ({
  page,
  browser,
  member,
}) => {
  test.setTimeout(90_000);
  await loginAs(page, member);
  const receiver = await signedInPage(browser, other);

  // Sent, then withdrawn from the Requests tab.
  await search(page, other.email);
  await page.getByRole("button", { name: /^Send friend request/ }).click();
  await expect(toast(page)).toContainText("Friend request sent");
  await page.getByRole("link", { name: /^Requests/ }).click();
  const sent = page.getByRole("region", { name: "Sent by you" });
  await expect(sent).toContainText(`Bryony ${other.lastName}`);
  await expectAccessible(page);

  // The receiver has the request open while the sender withdraws it.
  await receiver.goto("/friends/requests");
  await expect(receiver.getByRole("region", { name: "Waiting for your answer" })).toContainText(member.email);
  await sent.getByRole("button", { name: /^Cancel request/ }).click();
  await expect(toast(page)).toContainText("Friend request cancelled");
  await expect(page.getByText("You have no requests waiting for an answer.")).toBeVisible();
  await receiver.getByRole("button", { name: /^Accept/ }).click();
  await expect(toast(receiver)).toContainText("Failed to respond.");
  await expect(toast(receiver)).toContainText("That request is no longer waiting");
  await expect(receiver.getByText("No one is waiting for your answer.")).toBeVisible();

  // Sent again (a cancelled request does not stand in the way), and rejected this time.
  await search(page, other.email);
  await expect(status(page)).toHaveText("Not friends yet");
  await page.getByRole("button", { name: /^Send friend request/ }).click();
  await expect(toast(page)).toContainText("Friend request sent");
  await receiver.goto("/friends/requests");
  await receiver.getByRole("button", { name: /^Reject/ }).click();
  await expect(toast(receiver)).toContainText("Friend request rejected");
  await expect(receiver.getByText("No one is waiting for your answer.")).toBeVisible();
  await receiver.context().close();

  // The sender is told when they may ask again, and is offered no button until then.
  await search(page, other.email);
  await expect(status(page)).toContainText("Bryony declined your last request. You can send another from");
  await expect(page.getByRole("button", { name: /^Send friend request/ })).toHaveCount(0);
  const { rows } = await db().query(`SELECT status FROM friend_requests WHERE "senderId" = $1 AND "receiverId" = $2`, [member.id, other.id]);
  expect(rows).toEqual([{ status: "rejected" }]);
});

test("a member who chose not to be found gets the same answer as an address nobody has", async ({ page, member }) => {
  await db().query(`UPDATE users SET discoverable = false WHERE id = $1`, [other.id]);
  await loginAs(page, member);
  const answer = page.getByTestId("search-answer");

  await search(page, other.email);
  await expect(answer).toBeVisible();
  const hidden = await answer.textContent();
  await expect(page.getByRole("button", { name: /^Send friend request/ })).toHaveCount(0);
  await expectAccessible(page);

  await search(page, `nobody-${randomBytes(4).toString("hex")}@example.com`);
  await expect(answer).toBeVisible();
  expect(await answer.textContent()).toBe(hidden);
  expect(hidden).toContain("No member found with that email address");

  await search(page, member.email);
  await expect(answer).toHaveText("That is your own email address.");
});

test("a search without an address, or with something that is not one, is told so next to the field and keeps what was typed", async ({ page, member }) => {
  await loginAs(page, member);
  const field = page.getByLabel("Email address");

  await search(page, "");
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Please enter an email address to search for.")).toBeVisible();
  await expectAccessible(page);

  await search(page, "bryony at example");
  await expect(page.getByText("Please enter a valid email address")).toBeVisible();
  await expect(field).toHaveValue("bryony at example");
  await expect(page.getByTestId("search-answer")).toHaveCount(0);
});

test("a visitor who is not signed in is asked to sign in first and comes back to Friends", async ({ page }) => {
  await page.goto("/friends/requests");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Ffriends%2Frequests/);
});
