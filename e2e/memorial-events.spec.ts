import { randomBytes } from "node:crypto";
import { createTestMemorial, loginAs } from "./db";
import { anotherPersonsPage, expect, expectAccessible, test, toast } from "./fixtures";
import { countMailTo, nextMailTo } from "./mail";

// A memorial's events, JavaScript on and off, at 390 px: the owner adds a funeral from the
// memorial's edit page (a plain http livestream is refused next to its field, the input kept); a visitor
// finds it on the memorial page in its own time zone, replies (a bad email refused next to the field, the
// input kept), is asked to check their email where they are looking, confirms the reply from the link and is
// emailed a copy; the owner sees the reply with its totals and emails everyone who replied, the visitor gets
// it, saying who wrote, and stops further updates from the same link.

const PHONE = { width: 390, height: 844 };

async function expectNarrow(page: import("@playwright/test").Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

test("the owner adds an event, a visitor replies, the owner sees the reply and emails attendees", async ({ page, member, browser }) => {
  test.setTimeout(180_000);
  await page.setViewportSize(PHONE);
  const tag = randomBytes(3).toString("hex");
  const memorial = await createTestMemorial(member, { firstName: "Ada", lastName: `Gathering${tag}`, visibility: "public", isPublished: true });
  const title = `Funeral of Ada ${tag} ${"Longname".repeat(6)}`;
  await loginAs(page, member);
  await page.goto(`/memorials/${memorial.id}/edit`);
  await page.getByRole("link", { name: "Events", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Events" })).toBeVisible();

  await page.getByLabel("Kind of event").selectOption("Funeral");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Date").fill("2099-06-20");
  await page.getByLabel("Starts at").fill("11:00");
  await page.getByLabel("Ends at (optional)").fill("12:30");
  await page.getByLabel("Time zone").selectOption("Europe/London");
  await page.getByLabel("Place", { exact: true }).fill("St Mary's Church");
  await page.getByLabel("Address (optional)").fill("1 Church Lane, York");
  await page.getByLabel("Livestream link (optional)").fill("http://example.com/live");
  await page.getByLabel("A note (optional)").fill("Bright colours, please. Donations to the hospice in lieu of flowers.");
  await page.getByRole("button", { name: "Add event" }).click();
  await expect(page.getByLabel("Livestream link (optional)")).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#event-livestreamUrl-error")).toHaveText("Enter a full https:// link, for example https://youtube.com/live/…");
  await expect(page.getByLabel("Title")).toHaveValue(title);
  await expectAccessible(page);
  await expectNarrow(page);

  await page.getByLabel("Livestream link (optional)").fill("https://example.com/live/ada");
  await page.getByRole("button", { name: "Add event" }).click();
  await expect(toast(page)).toContainText("Event added");
  await expect(page.getByRole("heading", { level: 2, name: "Events (1)" })).toBeVisible();
  await expectAccessible(page);
  await expectNarrow(page);

  // A visitor, not signed in.
  const visitor = await anotherPersonsPage(browser);
  await visitor.setViewportSize(PHONE);
  const email = `rsvp-${tag}@example.com`;
  try {
    await visitor.goto(`/memorials/${memorial.id}`);
    const events = visitor.getByRole("region", { name: "Events", exact: true });
    await expect(events.getByRole("heading", { level: 3, name: title })).toBeVisible();
    await expect(events.locator("time")).toContainText(/June 20, 2099, 11:00–12:30 BST/);
    await expect(events.getByRole("link", { name: /Map of St Mary's Church/ })).toHaveAttribute(
      "href",
      "https://www.openstreetmap.org/search?query=1+Church+Lane%2C+York",
    );
    await expect(events.getByRole("link", { name: /Watch the livestream/ })).toHaveAttribute("href", "https://example.com/live/ada");
    await expect(events.getByText("Donations to the hospice in lieu of flowers.", { exact: false })).toBeVisible();
    await expectAccessible(visitor);
    await expectNarrow(visitor);

    await events.getByText("I will be there").click();
    await events.getByLabel("Your name").fill("Rita Reply");
    await events.getByLabel("Your email address").fill("rita-at-nowhere");
    await events.getByLabel("How many of you are coming").fill("3");
    await events.getByLabel("A message for the family (optional)").fill("We will bring Mum.");
    await events.getByRole("button", { name: "Send my reply" }).click();
    await expect(visitor.getByRole("heading", { level: 1, name: /Reply to an event/ })).toBeVisible();
    const emailField = visitor.getByLabel("Your email address");
    await expect(emailField).toHaveAttribute("aria-invalid", "true");
    await expect(emailField).toHaveValue("rita-at-nowhere");
    await expect(visitor.getByText("Enter an email address like name@example.com")).toBeVisible();
    await expect(visitor.getByLabel("Your name")).toHaveValue("Rita Reply");
    await expectAccessible(visitor);
    await expectNarrow(visitor);

    const seen = countMailTo(email);
    await emailField.fill(email);
    await visitor.getByRole("button", { name: "Send my reply" }).click();
    await expect(visitor.getByTestId("toast-in-place")).toContainText("Check your email to confirm your reply");
    expect(new URL(visitor.url()).hash).toBe("#events");
    // The link goes to the address given, with nothing of what was typed; the reply counts once it is confirmed.
    const ask = await nextMailTo(email, seen);
    expect(ask.subject).toBe(`Please confirm your reply: ${title}`);
    expect(ask.text).not.toContain("Rita Reply");
    expect(ask.text).not.toContain("We will bring Mum.");
    const link = /https?:\/\/[^\s]+\/events\/reply\/[^\s]+/.exec(ask.text ?? "")![0];
    await visitor.goto(new URL(link).pathname + new URL(link).search);
    await expect(visitor.getByRole("heading", { level: 1, name: `Your reply to ${title}` })).toBeVisible();
    await expect(visitor.getByText("Rita Reply · 3 people · “We will bring Mum.”")).toBeVisible();
    await expectAccessible(visitor);
    await expectNarrow(visitor);
    const confirmed = countMailTo(email);
    await visitor.getByRole("button", { name: "Confirm this reply" }).click();
    await expect(toast(visitor)).toContainText("Your reply is confirmed");
    const copy = await nextMailTo(email, confirmed);
    expect(copy.subject).toBe(`Your reply: ${title}`);
    expect(copy.text).toContain("3 people");

    // The family sees the reply, and writes to everyone who replied.
    await page.getByRole("link", { name: `Replies to ${title}` }).click();
    await expect(page.getByTestId("reply-totals")).toHaveText("1 reply, 3 people in all");
    await expect(page.getByText("Rita Reply · 3 people")).toBeVisible();
    await expect(page.getByText("We will bring Mum.")).toBeVisible();
    await expectAccessible(page);
    await expectNarrow(page);

    await page.getByRole("button", { name: "Email attendees" }).click();
    await expect(page.getByLabel("Subject")).toHaveAttribute("aria-invalid", "true");
    await page.getByLabel("Subject").fill(`Change of time ${tag}`);
    await page.getByLabel("Message").fill("The funeral now starts at noon.");
    const before = countMailTo(email);
    await page.getByRole("button", { name: "Email attendees" }).click();
    await expect(toast(page)).toContainText("Your update is on its way to 1 person");
    const update = await nextMailTo(email, before);
    expect(update.subject).toBe(`Change of time ${tag}`);
    expect(update.text).toContain("The funeral now starts at noon.");
    expect(update.text).toContain(`${member.firstName} ${member.lastName}, of the family of Ada Gathering${tag}, writes`);

    // The visitor hears no more about it once they say so.
    await visitor.goto(new URL(link).pathname + new URL(link).search);
    await visitor.getByRole("button", { name: "Stop emails about this event" }).click();
    await expect(toast(visitor)).toContainText("No more emails about this event");
    await expect(visitor.getByText("You get no more emails about this event.")).toBeVisible();
  } finally {
    await visitor.context().close();
  }
});
