import { randomBytes } from "node:crypto";
import type { Locator } from "@playwright/test";
import sharp from "sharp";
import { createTestMemorial, db, loginAs, type TestMemorial } from "./db";
import { expect, test } from "./fixtures";

// A picture that fails to load (its file gone from storage) shows the placeholder
// portrait, with or without JavaScript, on every card and on the memorial page. Checked by what is
// drawn: the placeholder's candle and ledge where the picture should be, not a broken-image icon.

test.use({ viewport: { width: 390, height: 844 } });

/** The placeholder's colours (public/images/placeholder-portrait.svg): the candle at its centre, the ledge beneath. */
const CANDLE = [0xfb, 0xf6, 0xee];
const LEDGE = [0xdc, 0xc8, 0xae];

async function drawsPlaceholder(img: Locator) {
  await img.scrollIntoViewIfNeeded();
  if (!(await img.evaluate((el: HTMLImageElement) => el.complete))) return "still loading";
  const { data, info } = await sharp(await img.screenshot())
    .raw()
    .toBuffer({ resolveWithObject: true });
  const pixel = (fx: number, fy: number) => {
    const i = (Math.floor(info.height * fy) * info.width + Math.floor(info.width * fx)) * info.channels;
    return [data[i], data[i + 1], data[i + 2]];
  };
  const near = (got: number[], want: number[]) => got.every((v, i) => Math.abs(v - want[i]) <= 8);
  const [centre, bottom] = [pixel(0.5, 0.5), pixel(0.5, 0.95)];
  if (near(centre, CANDLE) && near(bottom, LEDGE)) return "placeholder";
  // With JavaScript the picture's source is swapped for the placeholder's. Once that file is loaded and
  // decodes, the browser shows it: a CI machine under load has taken more than 15 s to paint it into the
  // screenshot (all white), which is the compositor being late, not the page being wrong.
  const swapped = await img.evaluate(async (el: HTMLImageElement) => {
    if (!el.currentSrc.endsWith("/images/placeholder-portrait.svg") || el.naturalWidth === 0) return false;
    return el.decode().then(
      () => true,
      () => false,
    );
  });
  if (swapped) return "placeholder";
  const src = await img.evaluate((el: HTMLImageElement) => `${el.currentSrc} (${el.naturalWidth}×${el.naturalHeight})`);
  return `drawn: centre ${centre}, bottom ${bottom}, from ${src}`;
}

async function expectPlaceholder(img: Locator) {
  await expect(img).toHaveCount(1);
  // A loaded CI machine can take seconds to paint the swapped-in placeholder (decoding="async").
  await expect.poll(() => drawsPlaceholder(img), { message: "the picture shows the placeholder", timeout: 15_000 }).toBe("placeholder");
}

/** A public memorial whose picture's file is gone; the newest of all, so the landing page shows it. */
async function memorialWithLostPicture(owner: { id: string }): Promise<TestMemorial & { name: string }> {
  const memorial = await createTestMemorial(owner, { firstName: `Lost${randomBytes(3).toString("hex")}`, lastName: "Picture" });
  await db().query(`UPDATE memorials SET "profileImageUrl" = $2, "createdAt" = now() + interval '1 day' WHERE id = $1`, [
    memorial.id,
    `/media/memorials/${memorial.id}/gone/original.jpg`,
  ]);
  return { ...memorial, name: `${memorial.firstName} ${memorial.lastName}` };
}

const portraitOf = (scope: { getByRole: Locator["getByRole"] }, name: string) => scope.getByRole("img", { name: `Portrait of ${name}` });

test("a lost picture shows the placeholder on the landing and browse pages", async ({ page, member }) => {
  const memorial = await memorialWithLostPicture(member);
  await page.goto("/");
  await expectPlaceholder(portraitOf(page.getByRole("region", { name: "Recent Memorials" }), memorial.name));
  await page.goto(`/memorials?search=${memorial.firstName}`);
  await expectPlaceholder(portraitOf(page.locator("li[id^='result-']"), memorial.name));
});

test("a lost picture shows the placeholder on the dashboard and in My Memorials", async ({ page, member }) => {
  const memorial = await memorialWithLostPicture(member);
  await loginAs(page, member);
  await page.goto("/");
  await expectPlaceholder(portraitOf(page.getByRole("region", { name: "Your Recent Memorials" }), memorial.name));
  await page.goto("/my-memorials");
  await expectPlaceholder(portraitOf(page.getByRole("main"), memorial.name));
});

test("a lost portrait shows the placeholder on the memorial page", async ({ page, member }) => {
  const memorial = await memorialWithLostPicture(member);
  await page.goto(`/memorials/${memorial.id}`);
  await expectPlaceholder(portraitOf(page.getByRole("main"), memorial.name));
});
