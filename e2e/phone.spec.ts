import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { createTestMemorial, createTestTribute, db, loginAs, type TestMemorial } from "./db";
import { expect, expectAccessible, test, toast } from "./fixtures";
import { PLANS_HREF } from "../app/utils/plans";
import { sendFormsAsAPersonWould, sendFormsBackAtOnce } from "./form-stamp";

// "What a person on a phone must see" (10 and 13), on a 390 × 844 screen with
// JavaScript on and off: the answer to "did it work?" appears where the person is looking, a refused
// form comes back at its errors, and the free limit is told before the work.

test.use({ viewport: { width: 390, height: 844 } });

const paragraph = "He kept bees behind the church hall and sold the honey for the roof fund, one jar at a time. ".repeat(5).trim();

/** A public memorial whose tribute form is far below the first screen: a long life story and ten tributes. */
async function longMemorial(owner: { id: string }): Promise<TestMemorial> {
  const memorial = await createTestMemorial(owner);
  await db().query(`UPDATE memorials SET biography = $2 WHERE id = $1`, [memorial.id, Array(8).fill(paragraph).join("\n\n")]);
  for (let i = 0; i < 10; i++) await createTestTribute(memorial, { authorName: `Friend ${i}`, content: `${paragraph} (${i})`, isApproved: true });
  return memorial;
}

const thanks = (page: Page) => page.getByTestId("toast-in-place");

async function fillTribute(page: Page, name: string, content: string) {
  await page.getByLabel("Your name").fill(name);
  await page.getByLabel("Your tribute").fill(content);
}

const tributesStored = async (memorialId: string, content: string) =>
  (await db().query(`SELECT count(*)::int AS n FROM tributes WHERE "memorialId" = $1 AND content = $2`, [memorialId, content])).rows[0].n as number;

test.describe("the answer to 'did it work?' is where the person is looking (item 9)", () => {
  test("after Leave Tribute the visitor lands at the tributes, with the thanks shown there", async ({ page, member }) => {
    const memorial = await longMemorial(member);
    const words = `Thank you for the honey, every autumn ${randomBytes(3).toString("hex")}.`;
    await page.goto(`/memorials/${memorial.id}`);
    await fillTribute(page, "Nora Quill", words);
    await sendFormsAsAPersonWould(page);
    await page.getByRole("button", { name: "Leave Tribute" }).click();

    await expect(page).toHaveURL(new RegExp(`/memorials/${memorial.id}#tributes$`));
    await expect(thanks(page)).toContainText("Tribute submitted");
    await expect(thanks(page)).toContainText("Thank you. Your tribute has been sent to the family and will appear once they approve it.");
    await expect(thanks(page)).toBeInViewport();
    // Shown once, in place: not again in a floating toast.
    await expect(toast(page)).toHaveCount(0);
    expect(await tributesStored(memorial.id, words)).toBe(1);
    await expectAccessible(page);
  });

  test("a toast stays on screen wherever the owner has scrolled: fixed, a status, for 10 seconds and while it is read", async ({ page, member }) => {
    const memorial = await createTestMemorial(member);
    for (let i = 0; i < 12; i++) await createTestTribute(memorial, { authorName: `Waiting ${i}`, content: `${paragraph} (${i})` });
    await loginAs(page, member);
    await page.goto(`/memorials/${memorial.id}`);
    // The oldest is last in the long list, far down the page.
    await page.getByRole("button", { name: "Approve tribute from Waiting 0" }).click();

    await expect(toast(page)).toContainText("Tribute approved");
    await expect(toast(page)).toBeInViewport();
    const region = page.getByRole("status").filter({ has: toast(page) });
    await expect(region).toHaveCSS("position", "fixed");
    // It leaves by itself after 10 seconds (a CSS clock, the same without JavaScript), not 5 …
    await expect(toast(page)).toHaveCSS("animation-duration", "10s");
    // … and its clock stops while the person points at it (or focuses it).
    await toast(page).hover();
    await expect(toast(page)).toHaveCSS("animation-play-state", "paused");
    await expectAccessible(page);
  });

  test("after deleting a photo the owner is back at the gallery it was in, told so", async ({ page, browser, member, javaScriptEnabled }) => {
    const owner = await browser.newContext();
    const api = await owner.newPage();
    await loginAs(api, member);
    const created = await api.request.post("/api/memorials", {
      data: { firstName: "Ivor", lastName: "Beck", biography: paragraph, visibility: "public", isPublished: true },
    });
    const { id } = await created.json();
    const photo = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#7a9" } })
      .jpeg()
      .toBuffer();
    for (let i = 0; i < 2; i++) {
      const res = await api.request.post(`/api/memorials/${id}/media`, {
        data: { mediaData: `data:image/jpeg;base64,${photo.toString("base64")}`, fileName: `p${i}.jpg`, fileType: "image/jpeg" },
      });
      expect(res.status()).toBe(201);
    }
    await owner.close();

    await loginAs(page, member);
    await page.goto(`/memorials/${id}/edit`);
    await page.getByRole("link", { name: "Delete photo 2" }).click();
    const confirm = javaScriptEnabled ? page.getByRole("dialog", { name: "Delete this photo?" }) : page.getByRole("main");
    await confirm.getByRole("button", { name: "Delete" }).click();

    await expect(toast(page)).toContainText("Media deleted");
    await expect(page).toHaveURL(new RegExp(`/memorials/${id}/edit#media-gallery-heading$`));
    await expect(page.getByRole("heading", { name: "Media Gallery" })).toBeInViewport();
    await expect(toast(page)).toBeInViewport();
    await expect(page.getByRole("link", { name: /^Delete photo/ })).toHaveCount(1);
    await expectAccessible(page);
  });
});

test.describe("a refused form lands at its errors (item 10)", () => {
  test("a tribute with a mistake comes back to the form, the first error focused", async ({ page, member }) => {
    const memorial = await longMemorial(member);
    await page.goto(`/memorials/${memorial.id}`);
    await fillTribute(page, "A", "Long enough to be a tribute.");
    await sendFormsAsAPersonWould(page);
    await page.getByRole("button", { name: "Leave Tribute" }).click();

    // Without JavaScript the server refuses it, and the page comes back at the form, not at the top.
    const name = page.getByLabel("Your name");
    await expect(name).toBeFocused();
    await expect(name).toBeInViewport();
    await expect(name).toHaveAccessibleDescription(/Please enter your name/);
    await expect(page.getByText(/Please enter your name/)).toBeInViewport();
    await expect(page.getByLabel("Your tribute")).toHaveValue("Long enough to be a tribute.");
    await expectAccessible(page);
  });

  test("a tribute sent back too quickly comes back to the form with the reason in view and focused", async ({ page, member }) => {
    const memorial = await longMemorial(member);
    await sendFormsBackAtOnce(page);
    await page.goto(`/memorials/${memorial.id}`);
    await fillTribute(page, "Quick Typist", "Typed faster than any person could.");
    await page.getByRole("button", { name: "Leave Tribute" }).click();

    const reason = page.getByRole("alert").filter({ hasText: "quicker than we expected" });
    await expect(reason).toBeInViewport();
    await expect(page.locator(":focus")).toContainText("quicker than we expected");
    await expect(page.getByLabel("Your name")).toHaveValue("Quick Typist");
    await expectAccessible(page);
  });

  test("a signed-in member is never told they were quicker than expected", async ({ page, member }) => {
    const memorial = await longMemorial(member);
    const words = `Sent at once by someone we know ${randomBytes(3).toString("hex")}.`;
    await loginAs(page, member);
    await page.goto(`/memorials/${memorial.id}`);
    // Their name is filled in already; they write and send straight away.
    await page.getByLabel("Your tribute").fill(words);
    await page.getByRole("button", { name: "Leave Tribute" }).click();

    await expect(thanks(page)).toContainText("Tribute submitted");
    await expect(page.getByText("quicker than we expected")).toHaveCount(0);
    expect(await tributesStored(memorial.id, words)).toBe(1);
    await expectAccessible(page);
  });
});

test.describe("the free limit is told before the work (item 13)", () => {
  async function atLimit(member: { id: string }) {
    await db().query(
      `INSERT INTO memorials ("userId", title, "firstName", "lastName") SELECT $1, 'Old ' || n, 'Old', 'Memorial' FROM generate_series(1, 25) AS n`,
      [member.id],
    );
  }

  test("a member at 25 memorials is told on opening Create Memorial, with a way to the plans that leads somewhere", async ({ page, member }) => {
    await atLimit(member);
    await loginAs(page, member);
    await page.goto("/memorials/create");

    const notice = page.getByRole("region", { name: "Memorial limit reached" });
    await expect(notice).toBeInViewport();
    await expect(notice).toContainText("You've reached the 25 memorial limit for free users. Please subscribe to create unlimited memorials.");
    // No form to fill in that could not be saved.
    await expect(page.getByLabel(/First name/)).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Publish Memorial" })).toHaveCount(0);
    await expectAccessible(page);

    const plans = notice.getByRole("link", { name: "See plans" });
    await expect(plans).toHaveAttribute("href", PLANS_HREF);
    expect((await page.request.get(PLANS_HREF)).status()).toBe(200);
    await plans.click();
    await expect(page).toHaveURL(new RegExp(`${PLANS_HREF}$`));
    // The plans screen, with the free plan's limit beside the plans that lift it.
    await expect(page.getByRole("heading", { name: "Subscription", level: 1 })).toBeInViewport();
    await expect(page.getByRole("region", { name: "Choose Your Plan" })).toContainText("Up to 25 memorials");
    await expect(page.getByRole("region", { name: "Choose Your Plan" })).toContainText("Unlimited memorials");
    await expectAccessible(page);
  });

  test("a member below the limit gets the form", async ({ page, member }) => {
    await loginAs(page, member);
    await page.goto("/memorials/create");
    await expect(page.getByLabel(/First name/)).toBeVisible();
    await expect(page.getByRole("region", { name: "Memorial limit reached" })).toHaveCount(0);
  });
});
