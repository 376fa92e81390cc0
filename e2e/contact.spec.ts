import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { db, loginAs } from "./db";
import { expect, expectAccessible, test } from "./fixtures";
import { mailWithSubject } from "./mail";
import { sendFormsAsAPersonWould, sendFormsBackAtOnce } from "./form-stamp";

// Contact: a visitor writes to us. Every field's message beside it with what was typed kept,
// the thanks where the visitor is looking, the message stored as new, an acknowledgement to the sender
// and a copy to the support address; a member finds the form filled in. JavaScript on and off.

const SUPPORT = "support@everlight.uk";
const thanks = (page: Page) => page.getByTestId("toast-in-place");

/** A visitor's form sent back within 3 seconds of being served is taken for a bot (form-guard.server.ts). */
async function send(page: Page, takeAPersonsTime = true) {
  if (takeAPersonsTime) await sendFormsAsAPersonWould(page);
  await page.getByRole("button", { name: "Send Message" }).click();
}

test("a visitor's message: each field's message beside it, input kept, then the thanks and both emails", async ({ page }) => {
  test.setTimeout(60_000);
  const token = randomBytes(4).toString("hex");
  const email = `visitor-${token}@example.com`;
  const subject = `Question about a memorial ${token}`;
  await page.goto("/contact");
  await expect(page.getByRole("heading", { level: 1, name: "Contact us" })).toBeVisible();
  await expectAccessible(page);

  // Nothing filled in: every required field says what it needs.
  await send(page);
  await expect(page.getByLabel("Your name")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Name is required")).toBeVisible();
  await expect(page.getByText("Please enter a valid email address")).toBeVisible();
  await expect(page.getByText("Subject is required")).toBeVisible();
  await expect(page.getByText("Message must be at least 10 characters")).toBeVisible();
  await expectAccessible(page);

  // All but a message too short: only that one is refused, and everything typed is still there.
  await page.getByLabel("Your name").fill("Iona Fraser");
  await page.getByLabel("Your email").fill(email);
  await page.getByLabel("Subject").fill(subject);
  await page.getByLabel("What is it about?").selectOption("support");
  await page.getByLabel("Message", { exact: true }).fill("Too short");
  await send(page);
  await expect(page.getByLabel("Message", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Message must be at least 10 characters")).toBeVisible();
  await expect(page.getByText("Name is required")).toHaveCount(0);
  await expect(page.getByLabel("Your name")).toHaveValue("Iona Fraser");
  await expect(page.getByLabel("Your email")).toHaveValue(email);
  await expect(page.getByLabel("Subject")).toHaveValue(subject);
  await expect(page.getByLabel("What is it about?")).toHaveValue("support");
  await expect(page.getByLabel("Message", { exact: true })).toHaveValue("Too short");
  await expect(page.getByLabel("Message", { exact: true })).toBeFocused();

  const message = "I cannot find the memorial for my grandmother that I made last week.";
  await page.getByLabel("Message", { exact: true }).fill(message);
  await send(page);
  // The thanks is in the form's place, where the visitor is looking, and the form is empty again.
  await expect(thanks(page)).toContainText("Message sent");
  await expect(thanks(page)).toContainText("We'll get back to you within 24 hours.");
  await expect(thanks(page)).toBeInViewport();
  await expect(page.getByLabel("Subject")).toHaveValue("");
  await expectAccessible(page);

  const { rows } = await db().query(`SELECT name, email, subject, message, type, status, "userId" FROM contact_messages WHERE email = $1`, [email]);
  expect(rows).toEqual([{ name: "Iona Fraser", email, subject, message, type: "support", status: "new", userId: null }]);
  // A visitor's address is not known to be theirs: the acknowledgement repeats nothing.
  const acknowledgement = await mailWithSubject(email, "We have your message");
  expect(acknowledgement.text).not.toContain(message);
  const copy = await mailWithSubject(SUPPORT, `[Contact: support] ${subject}`);
  expect(copy.text).toContain(email);
  expect(copy.text).toContain(message);
});

test("a member finds the form filled in with their name and email, and is never held to the fill time", async ({ page, member }) => {
  const subject = `From a member ${randomBytes(4).toString("hex")}`;
  await loginAs(page, member);
  await page.goto("/contact");
  await expect(page.getByLabel("Your name")).toHaveValue(`${member.firstName} ${member.lastName}`);
  await expect(page.getByLabel("Your email")).toHaveValue(member.email);
  await expect(page.getByLabel("What is it about?")).toHaveValue("general");
  await page.getByLabel("Subject").fill(subject);
  await page.getByLabel("Message", { exact: true }).fill("Thank you for the lovely memorial pages.");
  await send(page, false);
  await expect(thanks(page)).toContainText("Message sent");
  const { rows } = await db().query(`SELECT type, status, "userId" FROM contact_messages WHERE subject = $1`, [subject]);
  expect(rows).toEqual([{ type: "general", status: "new", userId: member.id }]);
});

test("a visitor's form sent back quicker than a person could fill it in is refused with the reason, and kept", async ({ page }) => {
  const subject = `Too quick ${randomBytes(4).toString("hex")}`;
  await sendFormsBackAtOnce(page);
  await page.goto("/contact");
  await page.getByLabel("Your name").fill("Quick Typist");
  await page.getByLabel("Your email").fill("quick@example.com");
  await page.getByLabel("Subject").fill(subject);
  await page.getByLabel("Message", { exact: true }).fill("Typed faster than any person could.");
  await send(page, false);
  await expect(page.getByRole("alert")).toContainText("quicker than a person could fill it in");
  await expect(page.getByLabel("Subject")).toHaveValue(subject);
  const { rows } = await db().query(`SELECT count(*)::int AS n FROM contact_messages WHERE subject = $1`, [subject]);
  expect(rows[0].n).toBe(0);
});

test("the page's details and resources lead somewhere real", async ({ page }) => {
  await page.goto("/contact");
  await expect(page.getByRole("region", { name: "Contact details" }).getByRole("link", { name: SUPPORT })).toHaveAttribute("href", `mailto:${SUPPORT}`);
  await expect(page.getByText("Support hours: Monday to Friday, 9am to 6pm UK time.")).toBeVisible();
  const resources = page.getByRole("region", { name: "Support resources" }).getByRole("link");
  const hrefs = await resources.evaluateAll((links) => links.map((a) => a.getAttribute("href")));
  expect(hrefs).toEqual(["/help", "/memorials/create", "/memorials", "/privacy"]);
  for (const href of hrefs) expect((await page.request.get(href!)).status(), href!).toBe(200);
  await page.getByText("How quickly will you reply?").click();
  await expect(page.getByText("We'll get back to you within 24 hours. Our team works")).toBeVisible();
});
