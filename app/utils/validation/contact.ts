import { z } from "~/utils/validation/zod";
import { text } from "./text";

// The contact form: name required, email valid, subject
// required, message at least 10 characters, type one of four (general unless chosen). Every rule's
// words are in the same voice. Shared by /contact and POST /api/contact.

export const CONTACT_TYPES = ["general", "support", "feedback", "survey"] as const;
export type ContactType = (typeof CONTACT_TYPES)[number];
export const CONTACT_TYPE_LABELS: Record<ContactType, string> = {
  general: "General question",
  support: "Help with my account or a memorial",
  feedback: "Feedback",
  survey: "Survey",
};

export const CONTACT_LIMITS = { nameMax: 100, emailMax: 254, subjectMax: 200, messageMin: 10, messageMax: 5000 } as const;

export const CONTACT_MESSAGES = {
  name: "Name is required",
  nameLong: `Please keep your name under ${CONTACT_LIMITS.nameMax} characters`,
  email: "Please enter a valid email address",
  subject: "Subject is required",
  subjectLong: `Please keep the subject under ${CONTACT_LIMITS.subjectMax} characters`,
  message: "Message must be at least 10 characters",
  messageLong: "Please keep your message under 5,000 characters",
  type: "Please choose what your message is about",
  failed: "Failed to send message. Please try again.",
  sentTitle: "Message sent",
  honeypot: "Your message was not sent: a field meant to stay empty was filled in. If you use an autofill tool, please clear it and try again.",
  tooFast: "Your message was not sent because the form came back quicker than a person could fill it in. Please wait a moment and send it again.",
} as const;

export const contactSchema = z.object({
  name: text({ error: CONTACT_MESSAGES.name }).trim().min(1, CONTACT_MESSAGES.name).max(CONTACT_LIMITS.nameMax, CONTACT_MESSAGES.nameLong),
  email: text({ error: CONTACT_MESSAGES.email })
    .trim()
    .toLowerCase()
    .max(CONTACT_LIMITS.emailMax, CONTACT_MESSAGES.email)
    .pipe(z.email({ error: CONTACT_MESSAGES.email })),
  subject: text({ error: CONTACT_MESSAGES.subject }).trim().min(1, CONTACT_MESSAGES.subject).max(CONTACT_LIMITS.subjectMax, CONTACT_MESSAGES.subjectLong),
  message: text({ error: CONTACT_MESSAGES.message })
    .trim()
    .min(CONTACT_LIMITS.messageMin, CONTACT_MESSAGES.message)
    .max(CONTACT_LIMITS.messageMax, CONTACT_MESSAGES.messageLong),
  type: z.enum(CONTACT_TYPES, { error: CONTACT_MESSAGES.type }).default("general"),
});
export type ContactInput = z.output<typeof contactSchema>;
