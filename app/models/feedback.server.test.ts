import { describe, expect, it } from "vitest";
import { databaseKinds, useAppDatabase } from "../../test/databases";
import { UX_FEEDBACK } from "~/utils/feedback";
import { getPopupState, isFeedbackPopupDue, listOwnFeedback, recordPopupComplete, recordPopupSkip, saveFeedback } from "./feedback.server";

// The UX feedback popup's rule: due exactly when the member has not completed it,
// has given no ux_feedback, and owns 1 memorial with no skip or 2 memorials with one skip.

let n = 0;
const email = () => `f${Date.now().toString(36)}${n++}@example.com`;
const ANSWERS = { ease_of_use: 4, feature_satisfaction: ["Biography section" as const], improvement_suggestions: "More themes." };

// Every combination, with the answer expected written out case by case.
const cases = [0, 1, 2, 3].flatMap((memorials) =>
  [0, 1, 2].flatMap((skipCount) =>
    [false, true].flatMap((completed) =>
      [false, true].map((feedback) => ({
        memorials,
        skipCount,
        completed,
        feedback,
        due: !completed && !feedback && ((memorials === 1 && skipCount === 0) || (memorials === 2 && skipCount === 1)),
      })),
    ),
  ),
);

describe.each(databaseKinds)("the feedback popup on $name", (kind) => {
  const { skip } = kind;
  const app = useAppDatabase(kind);
  const member = () => app.db.prisma.user.create({ data: { email: email(), firstName: "F", lastName: "B", password: "x" } });
  const memorials = (userId: string, count: number) =>
    app.db.prisma.memorial.createMany({ data: Array.from({ length: count }, (_, i) => ({ userId, title: `M${i}`, firstName: "A", lastName: "B" })) });

  it("covers all 48 combinations, due in exactly two", () => {
    expect(cases).toHaveLength(48);
    expect(cases.filter((c) => c.due).map((c) => [c.memorials, c.skipCount])).toEqual([
      [1, 0],
      [2, 1],
    ]);
  });

  it.skipIf(skip).each(cases)(
    "$memorials memorial(s), skipCount $skipCount, completed $completed, feedback $feedback → due $due",
    async ({ memorials: count, skipCount, completed, feedback, due }) => {
      const user = await member();
      await memorials(user.id, count);
      if (skipCount || completed) await app.db.prisma.popupState.create({ data: { userId: user.id, popupType: UX_FEEDBACK, skipCount, completed } });
      if (feedback) await app.db.prisma.feedback.create({ data: { userId: user.id, type: UX_FEEDBACK, content: "{}", rating: 3 } });
      expect(await isFeedbackPopupDue(user)).toBe(due);
    },
  );

  it.skipIf(skip)("is never due for a visitor, nor because of another member's state", async () => {
    expect(await isFeedbackPopupDue(null)).toBe(false);
    const user = await member();
    const other = await member();
    await memorials(user.id, 1);
    await recordPopupComplete(other.id, UX_FEEDBACK);
    await app.db.prisma.feedback.create({ data: { userId: other.id, type: UX_FEEDBACK, content: "{}", rating: 3 } });
    expect(await isFeedbackPopupDue(user)).toBe(true);
  });

  it.skipIf(skip)("a skip puts it off until the second memorial, a second skip for good", async () => {
    const user = await member();
    expect(await getPopupState(user.id, UX_FEEDBACK)).toEqual({ popupType: UX_FEEDBACK, completed: false, skipCount: 0 });
    await memorials(user.id, 1);
    expect(await isFeedbackPopupDue(user)).toBe(true);
    expect(await recordPopupSkip(user.id, UX_FEEDBACK)).toEqual({ popupType: UX_FEEDBACK, completed: false, skipCount: 1 });
    expect(await isFeedbackPopupDue(user)).toBe(false);
    await memorials(user.id, 1);
    expect(await isFeedbackPopupDue(user)).toBe(true);
    expect((await recordPopupSkip(user.id, UX_FEEDBACK)).skipCount).toBe(2);
    expect(await isFeedbackPopupDue(user)).toBe(false);
  });

  it.skipIf(skip)("answering saves the feedback once and completes the popup", async () => {
    const user = await member();
    await memorials(user.id, 1);
    const saved = await saveFeedback(user.id, ANSWERS);
    expect(saved.status).toBe("created");
    // The feedback alone already stops the popup; completing it is recorded too.
    expect(await isFeedbackPopupDue(user)).toBe(false);
    expect(await recordPopupComplete(user.id, UX_FEEDBACK)).toEqual({ popupType: UX_FEEDBACK, completed: true, skipCount: 0 });
    const [stored] = await listOwnFeedback(user.id);
    expect(stored).toMatchObject({ userId: user.id, type: UX_FEEDBACK, rating: 4 });
    expect(JSON.parse(stored.content)).toEqual(ANSWERS);
    // A second submission (another tab, a double click) stores nothing, even when both arrive together.
    const again = await Promise.all([saveFeedback(user.id, ANSWERS), saveFeedback(user.id, ANSWERS)]);
    expect(again.map((r) => r.status)).toEqual(["already", "already"]);
    expect(await listOwnFeedback(user.id)).toHaveLength(1);
  });

  it.skipIf(skip)("lets only one of two simultaneous first submissions in", async () => {
    const user = await member();
    const results = await Promise.all([saveFeedback(user.id, ANSWERS), saveFeedback(user.id, { ...ANSWERS, ease_of_use: 2 })]);
    expect(results.map((r) => r.status).sort()).toEqual(["already", "created"]);
    expect(await listOwnFeedback(user.id)).toHaveLength(1);
  });

  it.skipIf(skip)("completing before any skip leaves skipCount 0, and completing twice is harmless", async () => {
    const user = await member();
    await recordPopupComplete(user.id, UX_FEEDBACK);
    expect(await recordPopupComplete(user.id, UX_FEEDBACK)).toEqual({ popupType: UX_FEEDBACK, completed: true, skipCount: 0 });
    await memorials(user.id, 1);
    expect(await isFeedbackPopupDue(user)).toBe(false);
  });
});
