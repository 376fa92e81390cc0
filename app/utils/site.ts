// Facts about the site shown on many pages: one place for each.
export const SITE_NAME = "Everlight";
export const SUPPORT_EMAIL = "support@everlight.uk";
/** The spec shows this year in the footer's copyright line (memorial-core.md §9). */
export const COPYRIGHT_YEAR = 2024;
export const PLACEHOLDER_PORTRAIT = "/images/placeholder-portrait.svg";
export const PLACEHOLDER_PRODUCT = "/images/placeholder-product.svg";
