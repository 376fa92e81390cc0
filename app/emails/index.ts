import { render } from "@react-email/components";
import { createElement, type ReactElement } from "react";
import { OrderCancelledEmail, orderCancelledSubject, type OrderCancelledProps } from "./order-cancelled";
import { OrderShippedEmail, orderShippedSubject, type OrderShippedProps } from "./order-shipped";
import { PaymentRefundedEmail, paymentRefundedSubject, type PaymentRefundedProps } from "./payment-refunded";
import { OrderConfirmationEmail, orderConfirmationSubject, type OrderConfirmationProps } from "./order-confirmation";
import { InstalmentMissedEmail, instalmentMissedSubject, type InstalmentMissedProps } from "./instalment-missed";
import { PlanCancelledEmail, planCancelledSubject, type PlanCancelledProps } from "./plan-cancelled";
import { PlanEndedEmail, planEndedSubject, type PlanEndedProps } from "./plan-ended";
import { PlanLapsedEmail, planLapsedSubject, type PlanLapsedProps } from "./plan-lapsed";
import { PlanReceiptEmail, planReceiptSubject, type PlanReceiptProps } from "./plan-receipt";
import { PlanRefundEmail, planRefundSubject, type PlanRefundProps } from "./plan-refund";
import { PlanResumedEmail, planResumedSubject, type PlanResumedProps } from "./plan-resumed";
import { AccountDeletedEmail, accountDeletedSubject, type AccountDeletedProps } from "./account-deleted";
import { AccountRestoredEmail, accountRestoredSubject, type AccountRestoredProps } from "./account-restored";
import { PurgeNoticeEmail, purgeNoticeSubject, type PurgeNoticeProps } from "./purge-notice";
import { ContactCopyEmail, contactCopySubject, type ContactCopyProps } from "./contact-copy";
import { ContactReceivedEmail, contactReceivedSubject, type ContactReceivedProps } from "./contact-received";
import { FriendRequestEmail, friendRequestSubject, type FriendRequestProps } from "./friend-request";
import { PasswordChangedEmail, passwordChangedSubject, type PasswordChangedProps } from "./password-changed";
import { PasswordResetEmail, passwordResetSubject, type PasswordResetProps } from "./password-reset";
import { MemorialExportReadyEmail, memorialExportReadySubject, type MemorialExportReadyProps } from "./memorial-export-ready";
import { MemorialInvitationEmail, memorialInvitationSubject, type MemorialInvitationProps } from "./memorial-invitation";
import { CoManagerRemovedEmail, coManagerRemovedSubject, type CoManagerRemovedProps } from "./co-manager-removed";
import { SuccessorNamedEmail, successorNamedSubject, type SuccessorNamedProps } from "./successor-named";
import { InactivityReminderEmail, inactivityReminderSubject, type InactivityReminderProps } from "./inactivity-reminder";
import { MemorialHandedOverEmail, memorialHandedOverSubject, type MemorialHandedOverProps } from "./memorial-handed-over";
import { FollowConfirmEmail, followConfirmSubject, type FollowConfirmProps } from "./follow-confirm";
import { AnniversaryReminderEmail, anniversaryReminderSubject, type AnniversaryReminderProps } from "./anniversary-reminder";
import { FollowDigestEmail, followDigestSubject, type FollowDigestProps } from "./follow-digest";
import { EventRsvpEmail, eventRsvpSubject, type EventRsvpProps } from "./event-rsvp";
import { EventRsvpConfirmEmail, eventRsvpConfirmSubject, type EventRsvpConfirmProps } from "./event-rsvp-confirm";
import { EventUpdateEmail, eventUpdateSubject, type EventUpdateProps } from "./event-update";
import { BackupAlertEmail, backupAlertSubject, type BackupAlertProps } from "./backup-alert";
import { TributesWaitingEmail, tributesWaitingSubject, type TributesWaitingProps } from "./tributes-waiting";

// Every email Everlight sends, by kind: its subject and its template (React, rendered to HTML and plain
// text). The outbox stores a kind and its data; the worker asks the models for the props, then renders
// here (server/mail-worker.ts). A new email is a template and a line below.

export type EmailPropsByKind = {
  "password-reset": PasswordResetProps;
  "password-changed": PasswordChangedProps;
  "account-deleted": AccountDeletedProps;
  "account-restored": AccountRestoredProps;
  "purge-notice": PurgeNoticeProps;
  "tributes-waiting": TributesWaitingProps;
  "order-confirmation": OrderConfirmationProps;
  "order-cancelled": OrderCancelledProps;
  "order-shipped": OrderShippedProps;
  "payment-refunded": PaymentRefundedProps;
  "instalment-missed": InstalmentMissedProps;
  "plan-lapsed": PlanLapsedProps;
  "plan-ended": PlanEndedProps;
  "plan-receipt": PlanReceiptProps;
  "plan-refund": PlanRefundProps;
  "plan-cancelled": PlanCancelledProps;
  "plan-resumed": PlanResumedProps;
  "friend-request": FriendRequestProps;
  "contact-received": ContactReceivedProps;
  "contact-copy": ContactCopyProps;
  "memorial-export-ready": MemorialExportReadyProps;
  "memorial-invitation": MemorialInvitationProps;
  "co-manager-removed": CoManagerRemovedProps;
  "successor-named": SuccessorNamedProps;
  "inactivity-reminder": InactivityReminderProps;
  "memorial-handed-over": MemorialHandedOverProps;
  "follow-confirm": FollowConfirmProps;
  "follow-digest": FollowDigestProps;
  "anniversary-reminder": AnniversaryReminderProps;
  "event-rsvp": EventRsvpProps;
  "event-update": EventUpdateProps;
  "event-rsvp-confirm": EventRsvpConfirmProps;
  "backup-alert": BackupAlertProps;
};
export type EmailKind = keyof EmailPropsByKind;

type Entry<K extends EmailKind> = { subject: (props: EmailPropsByKind[K]) => string; template: (props: EmailPropsByKind[K]) => ReactElement };

const EMAILS: { [K in EmailKind]: Entry<K> } = {
  "password-reset": { subject: passwordResetSubject, template: PasswordResetEmail },
  "password-changed": { subject: passwordChangedSubject, template: PasswordChangedEmail },
  "account-deleted": { subject: accountDeletedSubject, template: AccountDeletedEmail },
  "account-restored": { subject: accountRestoredSubject, template: AccountRestoredEmail },
  "purge-notice": { subject: purgeNoticeSubject, template: PurgeNoticeEmail },
  "tributes-waiting": { subject: tributesWaitingSubject, template: TributesWaitingEmail },
  "order-confirmation": { subject: orderConfirmationSubject, template: OrderConfirmationEmail },
  "order-cancelled": { subject: orderCancelledSubject, template: OrderCancelledEmail },
  "order-shipped": { subject: orderShippedSubject, template: OrderShippedEmail },
  "payment-refunded": { subject: paymentRefundedSubject, template: PaymentRefundedEmail },
  "instalment-missed": { subject: instalmentMissedSubject, template: InstalmentMissedEmail },
  "plan-lapsed": { subject: planLapsedSubject, template: PlanLapsedEmail },
  "plan-ended": { subject: planEndedSubject, template: PlanEndedEmail },
  "plan-receipt": { subject: planReceiptSubject, template: PlanReceiptEmail },
  "plan-refund": { subject: planRefundSubject, template: PlanRefundEmail },
  "plan-cancelled": { subject: planCancelledSubject, template: PlanCancelledEmail },
  "plan-resumed": { subject: planResumedSubject, template: PlanResumedEmail },
  "friend-request": { subject: friendRequestSubject, template: FriendRequestEmail },
  "contact-received": { subject: contactReceivedSubject, template: ContactReceivedEmail },
  "contact-copy": { subject: contactCopySubject, template: ContactCopyEmail },
  "memorial-export-ready": { subject: memorialExportReadySubject, template: MemorialExportReadyEmail },
  "memorial-invitation": { subject: memorialInvitationSubject, template: MemorialInvitationEmail },
  "co-manager-removed": { subject: coManagerRemovedSubject, template: CoManagerRemovedEmail },
  "successor-named": { subject: successorNamedSubject, template: SuccessorNamedEmail },
  "inactivity-reminder": { subject: inactivityReminderSubject, template: InactivityReminderEmail },
  "memorial-handed-over": { subject: memorialHandedOverSubject, template: MemorialHandedOverEmail },
  "follow-confirm": { subject: followConfirmSubject, template: FollowConfirmEmail },
  "follow-digest": { subject: followDigestSubject, template: FollowDigestEmail },
  "anniversary-reminder": { subject: anniversaryReminderSubject, template: AnniversaryReminderEmail },
  "event-rsvp": { subject: eventRsvpSubject, template: EventRsvpEmail },
  "event-update": { subject: eventUpdateSubject, template: EventUpdateEmail },
  "event-rsvp-confirm": { subject: eventRsvpConfirmSubject, template: EventRsvpConfirmEmail },
  "backup-alert": { subject: backupAlertSubject, template: BackupAlertEmail },
};

export function isEmailKind(kind: string): kind is EmailKind {
  return kind in EMAILS;
}

/** The subject, HTML and plain text of one email. */
export async function renderEmail<K extends EmailKind>(kind: K, props: EmailPropsByKind[K]) {
  const entry = EMAILS[kind] as Entry<K>;
  const element = createElement(entry.template as (p: EmailPropsByKind[K]) => ReactElement, props);
  const [html, text] = await Promise.all([render(element), render(element, { plainText: true })]);
  return { subject: entry.subject(props), html, text };
}
