// The vault's rules in words and numbers, for its pages (the strength meter runs in the browser too), its
// use cases and the /api alike.

const MB = 1024 * 1024;

export const VAULT_LIMITS = {
  /** 10MB per file. */
  fileBytes: 10 * MB,
  /** Ours (README): what one member may keep in all. */
  quotaBytes: 500 * MB,
} as const;

export const VAULT_CATEGORIES = ["document", "image", "video", "other"] as const;
export type VaultCategory = (typeof VAULT_CATEGORIES)[number];
export const VAULT_CATEGORY_LABELS: Record<VaultCategory, string> = { document: "Document", image: "Image", video: "Video", other: "Other" };

/** JPG/JPEG, PNG, SVG, MP4, PDF, DOCX, TXT: the name's extension and the declared type must both be one of a kind's. */
export const VAULT_TYPES = [
  { label: "JPG/JPEG", extensions: ["jpg", "jpeg"], mimeTypes: ["image/jpeg"], category: "image" },
  { label: "PNG", extensions: ["png"], mimeTypes: ["image/png"], category: "image" },
  { label: "SVG", extensions: ["svg"], mimeTypes: ["image/svg+xml"], category: "image" },
  { label: "MP4", extensions: ["mp4"], mimeTypes: ["video/mp4"], category: "video" },
  { label: "PDF", extensions: ["pdf"], mimeTypes: ["application/pdf"], category: "document" },
  { label: "DOCX", extensions: ["docx"], mimeTypes: ["application/vnd.openxmlformats-officedocument.wordprocessingml.document"], category: "document" },
  { label: "TXT", extensions: ["txt"], mimeTypes: ["text/plain"], category: "document" },
] as const satisfies readonly { label: string; extensions: readonly string[]; mimeTypes: readonly string[]; category: VaultCategory }[];
export type VaultType = (typeof VAULT_TYPES)[number];

/** What the file input offers (the server checks again, by content). */
export const VAULT_ACCEPT = VAULT_TYPES.flatMap((t) => [...t.extensions.map((e) => `.${e}`), ...t.mimeTypes]).join(",");

export const VAULT_MESSAGES = {
  /** In the account download when the vault is locked for that session: its file names are private too. */
  exportLocked: "Your vault is locked, so its file names are not listed. Unlock your vault, then download your data again to include them.",
  invalidType: "Invalid File Type",
  invalidTypeHint: `Please choose a ${VAULT_TYPES.map((t) => t.label).join(", ")} file.`,
  tooLarge: "File Too Large",
  tooLargeHint: "Files can be at most 10MB.",
  quota: "Your vault is full",
  passwordTooWeak: "Password too weak",
  passwordsMatch: "Passwords don't match",
  acknowledge: "Please acknowledge the security risk",
  passwordRequired: "Password required",
  invalidPassword: "Invalid password",
  createFailed: "Failed to create vault password. Please try again.",
  verifyFailed: "Failed to verify password. Please try again.",
  uploadFailed: "Upload Failed",
  deleteFailed: "Delete Failed",
  downloadFailed: "Download Failed",
  damaged: "This file could not be decrypted: it has been altered or damaged. Nothing else in your vault is affected.",
  locked: "Your vault is locked. Enter its password to open it.",
  subscriptionRequired: "The vault comes with the Forever Plus plan.",
  notFound: "File not found",
} as const;

/** Five checks, score = passed / 5 × 100, at least 80 to be accepted. */
export const PASSWORD_CHECKS = [
  { label: "At least 8 characters", test: (p: string) => p.length >= 8 },
  { label: "An uppercase letter", test: (p: string) => /[A-Z]/.test(p) },
  { label: "A lowercase letter", test: (p: string) => /[a-z]/.test(p) },
  { label: "A number", test: (p: string) => /[0-9]/.test(p) },
  { label: "A special character", test: (p: string) => /[^A-Za-z0-9]/.test(p) },
] as const;
export const STRENGTH_THRESHOLD = 80;

export function passwordStrength(password: string) {
  const checks = PASSWORD_CHECKS.map((c) => ({ label: c.label, met: c.test(password) }));
  const score = (checks.filter((c) => c.met).length / PASSWORD_CHECKS.length) * 100;
  const label = score < 40 ? "Weak" : score < 60 ? "Fair" : score < 80 ? "Good" : "Strong";
  return { checks, score, label, strongEnough: score >= STRENGTH_THRESHOLD };
}

/** The kind of file a name and a declared type claim to be, if they agree on an allowed one. */
export function vaultTypeOf(fileName: string, mimeType: string): VaultType | null {
  const extension = fileName.toLowerCase().split(".").pop() ?? "";
  const declared = mimeType.toLowerCase().split(";")[0].trim();
  return VAULT_TYPES.find((t) => (t.extensions as readonly string[]).includes(extension) && (t.mimeTypes as readonly string[]).includes(declared)) ?? null;
}

/** "2.4 MB", "512 KB", "87 bytes". */
export function describeSize(bytes: number) {
  if (bytes >= MB) return `${(bytes / MB).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} byte${bytes === 1 ? "" : "s"}`;
}
