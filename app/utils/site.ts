// Facts about the site shown on many pages: one place for each.
export const SITE_NAME = "Everlight";
export const SUPPORT_EMAIL = "support@everlight.uk";
/** The year in the footer's copyright line. */
export const COPYRIGHT_YEAR = 2024;
export const PLACEHOLDER_PORTRAIT = "/images/placeholder-portrait.svg";
export const PLACEHOLDER_PRODUCT = "/images/placeholder-product.svg";
/** The link preview picture (1200×630 JPEG) of pages and of memorials without a stored portrait. */
export const DEFAULT_SOCIAL_CARD = "/images/social-card.jpg";
/**
 * When the support team answers. Not "9AM to 6PM EST": Everlight is a UK company
 * and keeps UK hours, so we state those, in the UK's own time (GMT in winter, BST in summer); the Help
 * Center, the contact page and the contact acknowledgement all say this one sentence.
 */
export const SUPPORT_HOURS = "Monday to Friday, 9am to 6pm UK time";
/** The reply promised after a contact message. */
export const SUPPORT_REPLY_TIME = "We'll get back to you within 24 hours.";
