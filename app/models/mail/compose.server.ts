import { prisma } from "~/services/db.server";
import { getEnv, publicUrl } from "~/services/env.server";
import { formatLongDate } from "~/utils/dates";
import { purgeDateOf } from "~/utils/deletion";
import { formatPence } from "~/utils/money";
import { PLANS } from "~/utils/plans";
import { reminderFacts } from "../memorials/succession.server";
import type { ComposedMail, OutboxRow } from "./outbox.server";
import { composeInvitation, composeEventMail, composeExportReady, composeTributesWaiting } from "./compose-memorials.server";
import { composeFollowConfirm, composeFollowDigest, composeAnniversaryReminder, composeFriendRequest, composeContactMail } from "./compose-community.server";
import { composePlanMail, composeOrderConfirmation, composeOrderNews, composePaymentRefunded } from "./compose-commerce.server";
import { resetTokenFor } from "~/services/signed-links.server";
import { issueResetToken } from "../accounts/password-reset.server";

// What each email says, composed when it is sent from the facts in its outbox row and the data as it is
// then (a tribute approved meanwhile, an order cancelled). Read-only: composing never changes what it
// reads, except that a password-reset link is made at this moment (issueResetToken). Each feature's
// facts come from the feature; this module only reads them.

/** The email a row stands for now, or null when there is no longer anything to say. */
export async function composeMail(row: OutboxRow): Promise<ComposedMail | { skip: string }> {
  const data = row.data;
  const site = publicUrl();
  switch (row.kind) {
    case "password-reset": {
      // Rows queued by older versions carry the token's id; now the link is made here (issueResetToken).
      const tokenId = data.tokenId ? String(data.tokenId) : row.id;
      if (!data.tokenId) {
        const issued = await issueResetToken(row.id, String(data.email ?? row.to), new Date(String(data.requestedAt)), Number(data.validMinutes));
        if (issued) return issued;
      }
      const token = await prisma().passwordResetToken.findUnique({
        where: { id: tokenId },
        select: { usedAt: true, expiresAt: true, user: { select: { firstName: true } } },
      });
      if (!token || token.usedAt || token.expiresAt <= new Date()) return { skip: "the link is no longer valid" };
      const resetUrl = `${site}/reset-password?${new URLSearchParams({ token: resetTokenFor(tokenId) })}`;
      return { to: row.to, kind: "password-reset", props: { firstName: token.user.firstName, resetUrl, validMinutes: Number(data.validMinutes) } };
    }
    case "password-changed":
      return { to: row.to, kind: "password-changed", props: { firstName: String(data.firstName), forgotUrl: `${site}/forgot-password` } };
    case "account-deleted": {
      // Queued before the 30-day window existed, with no date: counted from now, which is never too early.
      const purgeAt = typeof data.purgeAt === "string" ? data.purgeAt : purgeDateOf(new Date()).toISOString();
      const props = { firstName: String(data.firstName), supportEmail: getEnv().SUPPORT_EMAIL, purgeDate: formatLongDate(purgeAt), loginUrl: `${site}/login` };
      return { to: row.to, kind: "account-deleted", props };
    }
    case "account-restored":
      return {
        to: row.to,
        kind: "account-restored",
        props: {
          firstName: String(data.firstName),
          byAdmin: data.byAdmin === true,
          myMemorialsUrl: `${site}/my-memorials`,
          supportEmail: getEnv().SUPPORT_EMAIL,
        },
      };
    case "purge-notice": {
      const what = data.what === "account" ? "account" : "memorial";
      const props = {
        firstName: String(data.firstName),
        what,
        title: typeof data.title === "string" ? data.title : null,
        purgeDate: formatLongDate(String(data.purgeAt)),
        restoreUrl: `${site}${what === "account" ? "/login" : "/my-memorials"}`,
      } as const;
      return { to: row.to, kind: "purge-notice", props };
    }
    case "tributes-waiting":
      return composeTributesWaiting(row, site);
    case "order-confirmation":
      return composeOrderConfirmation(row, site);
    case "order-cancelled":
    case "order-shipped":
      return composeOrderNews(row, site);
    case "payment-refunded":
      return composePaymentRefunded(row, site);
    case "instalment-missed": {
      const planName = PLANS[data.planId === "forever_plus" ? "forever_plus" : "forever"].name;
      const props = {
        firstName: String(data.firstName),
        planName,
        amount: formatPence(Number(data.amount)),
        number: Number(data.number),
        count: Number(data.count),
      };
      return {
        to: row.to,
        kind: "instalment-missed",
        props: { ...props, accessUntil: formatLongDate(String(data.accessUntil)), subscriptionUrl: `${site}/subscription` },
      };
    }
    case "plan-lapsed":
    case "plan-ended": {
      const planName = PLANS[data.planId === "forever_plus" ? "forever_plus" : "forever"].name;
      return { to: row.to, kind: row.kind, props: { firstName: String(data.firstName), planName, subscriptionUrl: `${site}/subscription` } };
    }
    case "plan-receipt":
    case "plan-refund":
    case "plan-cancelled":
    case "plan-resumed":
      return composePlanMail(row, site);
    case "friend-request":
      return composeFriendRequest(row, site);
    case "contact-received":
    case "contact-copy":
      return composeContactMail(row, site);
    case "memorial-export-ready":
      return composeExportReady(row, site);
    case "memorial-invitation":
      return composeInvitation(row, site);
    case "co-manager-removed":
      return {
        to: row.to,
        kind: "co-manager-removed",
        props: { name: String(data.name), removedBy: String(data.removedBy), supportEmail: getEnv().SUPPORT_EMAIL },
      };
    case "successor-named":
      return {
        to: row.to,
        kind: "successor-named",
        props: {
          firstName: String(data.firstName),
          name: String(data.name),
          owner: String(data.owner),
          managersUrl: `${site}/memorials/${data.memorialId}/managers`,
        },
      };
    case "inactivity-reminder": {
      const facts = await reminderFacts(String(data.userId), Number(data.stage));
      if (!facts) return { skip: "the member has been seen since, or has nothing to hand on" };
      const props = {
        firstName: facts.firstName,
        final: Number(data.stage) === 2,
        lastSeen: formatLongDate(String(data.lastSeen)),
        handOverDate: formatLongDate(String(data.handOverAt)),
        memorials: facts.memorials,
        loginUrl: `${site}/login`,
        settingsUrl: `${site}/account/manage`,
      };
      return { to: row.to, kind: "inactivity-reminder", props };
    }
    case "follow-confirm":
      return composeFollowConfirm(row, site);
    case "follow-digest":
      return composeFollowDigest(row, site);
    case "anniversary-reminder":
      return composeAnniversaryReminder(row, site);
    case "event-rsvp":
    case "event-rsvp-confirm":
    case "event-update":
      return composeEventMail(row, site);
    case "memorial-handed-over": {
      const memorialUrl = `${site}/memorials/${data.memorialId}`;
      const common = { firstName: String(data.firstName), name: String(data.name), memorialUrl };
      const props =
        data.audience === "previous-owner"
          ? { ...common, audience: "previous-owner" as const, successor: String(data.successor) }
          : {
              ...common,
              audience: "successor" as const,
              previousOwner: String(data.previousOwner),
              reason: data.reason === "absent" ? ("absent" as const) : ("account-deleted" as const),
            };
      return { to: row.to, kind: "memorial-handed-over", props };
    }
    case "backup-alert":
      return {
        to: row.to,
        kind: "backup-alert",
        props: {
          reason: data.reason === "stale" ? "stale" : "failed",
          error: typeof data.error === "string" ? data.error : null,
          lastSuccess: typeof data.lastSuccess === "string" ? formatLongDate(data.lastSuccess) : null,
          adminUrl: `${site}/admin`,
        },
      };
    default:
      return { skip: `no email of kind ${row.kind}` };
  }
}
