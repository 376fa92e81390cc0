// "Forgot your password?" in words and numbers, for its pages and its use case alike.

export const RESET_VALID_MINUTES = 60;
export const RESET_MESSAGES = {
  sent: "If an account exists for that address, we have sent a link to reset its password. It works once, for the next hour.",
  rateLimited: "Too many password reset requests.",
  invalid: "This link to reset your password does not work. It may have been mistyped or cut short.",
  used: "This link to reset your password has already been used.",
  expired: "This link to reset your password has expired: links work for one hour.",
} as const;
