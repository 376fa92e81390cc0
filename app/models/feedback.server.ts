import { prisma } from "~/services/db.server";
import { holdAdvisoryLock } from "~/services/transaction-locks.server";
import { FEEDBACK_POPUP_TRIGGERS, UX_FEEDBACK, type PopupType, type UxFeedbackAnswers } from "~/utils/feedback";

// Feedback and popup state.
// The dashboard's dialog, its no-JavaScript form and the /api all use these functions.

export type PopupState = { popupType: PopupType; completed: boolean; skipCount: number };

/** The member's state of a popup; a member who never saw it has the defaults (not completed, 0 skips). */
export async function getPopupState(userId: string, popupType: PopupType): Promise<PopupState> {
  const row = await prisma().popupState.findUnique({
    where: { userId_popupType: { userId, popupType } },
    select: { completed: true, skipCount: true },
  });
  return { popupType, completed: row?.completed ?? false, skipCount: row?.skipCount ?? 0 };
}

/**
 * Whether the UX feedback popup is due: signed in, popup not completed, no earlier ux_feedback from
 * this member, and exactly 1 owned memorial with no skip yet or exactly 2 with one skip. Three indexed
 * look-ups; the memorial count stops at 3, as no larger number matters.
 */
export async function isFeedbackPopupDue(user: { id: string } | null): Promise<boolean> {
  if (!user) return false;
  const [state, earlier, memorials] = await Promise.all([
    getPopupState(user.id, UX_FEEDBACK),
    prisma().feedback.findFirst({ where: { userId: user.id, type: UX_FEEDBACK }, select: { id: true } }),
    prisma().memorial.count({ where: { userId: user.id }, take: 3 }),
  ]);
  if (state.completed || earlier) return false;
  return FEEDBACK_POPUP_TRIGGERS.some((t) => t.memorials === memorials && t.skipCount === state.skipCount);
}

/** "Skip for now", the close icon or Escape: one more skip. */
export async function recordPopupSkip(userId: string, popupType: PopupType): Promise<PopupState> {
  const row = await prisma().popupState.upsert({
    where: { userId_popupType: { userId, popupType } },
    create: { userId, popupType, skipCount: 1 },
    update: { skipCount: { increment: 1 } },
    select: { completed: true, skipCount: true },
  });
  return { popupType, ...row };
}

/** After the feedback is saved: the popup never shows again. */
export async function recordPopupComplete(userId: string, popupType: PopupType): Promise<PopupState> {
  const row = await prisma().popupState.upsert({
    where: { userId_popupType: { userId, popupType } },
    create: { userId, popupType, completed: true },
    update: { completed: true },
    select: { completed: true, skipCount: true },
  });
  return { popupType, ...row };
}

const feedbackFields = { id: true, userId: true, type: true, content: true, rating: true, createdAt: true } as const;
type FeedbackRow = { id: string; userId: string | null; type: string; content: string; rating: number | null; createdAt: Date };

export type SaveFeedbackResult = { status: "created"; feedback: FeedbackRow } | { status: "already" };

/**
 * Saves a member's UX feedback: content is the answers as a JSON string keyed by question id, rating the
 * ease_of_use answer. One per member: a second (a double submission, another tab) is refused, under
 * a per-member lock so two at once cannot both get in.
 */
export async function saveFeedback(userId: string, answers: UxFeedbackAnswers): Promise<SaveFeedbackResult> {
  return prisma().$transaction(async (tx) => {
    await holdAdvisoryLock(tx, `${userId}:${UX_FEEDBACK}`);
    const earlier = await tx.feedback.findFirst({ where: { userId, type: UX_FEEDBACK }, select: { id: true } });
    if (earlier) return { status: "already" as const };
    const feedback = await tx.feedback.create({
      data: { userId, type: UX_FEEDBACK, content: JSON.stringify(answers), rating: answers.ease_of_use },
      select: feedbackFields,
    });
    return { status: "created" as const, feedback };
  });
}

export const OWN_FEEDBACK_LIMIT = 50;

/** GET /api/feedback: the caller's own feedback, newest first (bounded). */
export function listOwnFeedback(userId: string): Promise<FeedbackRow[]> {
  return prisma().feedback.findMany({ where: { userId }, orderBy: { createdAt: "desc" }, take: OWN_FEEDBACK_LIMIT, select: feedbackFields });
}

export function toApiFeedback(row: FeedbackRow) {
  return { ...row, createdAt: row.createdAt.toISOString() };
}
