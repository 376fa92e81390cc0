import { z } from "~/utils/validation/zod";
import { text } from "./validation/text";

// Co-managers: what the pages and emails say, and the invite form's rules, in one place.

export const INVITATION_VALID_DAYS = 7;

export const CO_MANAGER_ROLE_LABELS = { owner: "Owner", manager: "Manager", editor: "Editor" } as const;

export const CO_MANAGER_ROLE_HINTS = {
  editor: "Edits the memorial's words, dates, photos and videos, and approves or rejects tributes.",
  manager: "Everything an editor does, and also invites and removes people and changes who can see the memorial.",
} as const;

export const CO_MANAGER_MESSAGES = {
  editorVisibility: "The owner or a manager can change who sees the memorial and whether it is published.",
  emailRequired: "Enter the email address of the person to invite",
  emailInvalid: "Enter an email address like name@example.com",
  roleRequired: "Choose a role",
  alreadyManages: "This person already helps manage this memorial",
  isOwner: "This is the owner's address: the owner already manages the memorial",
  invited: "Invitation sent",
  revoked: "Invitation revoked",
  removed: "Removed from this memorial",
  roleChanged: "Role changed",
  accepted: "You now help manage this memorial",
  declined: "Invitation declined",
  notAllowed: "Only the owner or a manager can do this",
  invalid: "This invitation link is not valid. Check that you copied the whole link from the email.",
  expired: "This invitation has expired. Ask the person who invited you to send a new one.",
  used: "This invitation has already been used.",
  declinedBefore: "This invitation was declined.",
  revokedBefore: "This invitation was withdrawn by the memorial's managers.",
  ownInvitation: "You own this memorial already.",
} as const;

export const inviteSchema = z.object({
  email: text({ error: CO_MANAGER_MESSAGES.emailRequired })
    .trim()
    .toLowerCase()
    .min(1, CO_MANAGER_MESSAGES.emailRequired)
    .max(254, CO_MANAGER_MESSAGES.emailInvalid)
    .pipe(z.email({ error: CO_MANAGER_MESSAGES.emailInvalid })),
  role: z.enum(["editor", "manager"], { error: CO_MANAGER_MESSAGES.roleRequired }),
  /** Whoever accepts becomes the successor too (the owner's invitations only). */
  successor: z.boolean().default(false),
});
export type InviteInput = Omit<z.infer<typeof inviteSchema>, "successor"> & { successor?: boolean };
