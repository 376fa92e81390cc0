import path from "node:path";
import { z } from "zod";

// One place that reads the environment (STYLE.md "Configuration"). Every optional service has a
// local default so the app runs with nothing configured; .env.example lists every variable.

/** AI writing helpers (app/services/ai.server.ts): OpenAI or any compatible server; unset = offline writer. */
const aiVariables = {
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.url({ error: "OPENAI_BASE_URL must be a URL, such as http://127.0.0.1:11434/v1" }).optional(),
  OPENAI_MODEL: z.string().default("gpt-4o-mini"),
  OPENAI_TIMEOUT_MS: z.coerce.number().int().positive().default(20_000),
};

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must start with postgres:// or postgresql://")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  SEED_DEMO_DATA: z.enum(["true", "false"]).default("true"),
  /** Comma-separated; the first signs new cookies, all verify (rotate by putting a new one first). */
  SESSION_SECRET: z
    .string()
    .optional()
    .refine((v) => !v || v.split(",").every((s) => s.trim().length >= 32), "each secret must be at least 32 characters"),
  /** Secure cookies; defaults to on in production. Off only for plain-http setups you trust. */
  SESSION_COOKIE_SECURE: z.enum(["true", "false"]).optional(),
  /** Behind a load balancer: take the client's address from the first X-Forwarded-For hop. */
  TRUST_PROXY: z.enum(["true", "false"]).default("false"),
  /** Media in an S3-compatible bucket instead of DATA_DIR/uploads (app/services/storage.server.ts). */
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default("us-east-1"),
  /** For S3-compatible services other than AWS (R2, MinIO…): their endpoint URL. */
  S3_ENDPOINT: z.url().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: z.enum(["true", "false"]).optional(),
  ...aiVariables,
  /** Email over SMTP (smtp://user:pass@host:587, smtps://… for TLS); unset: each message is written to DATA_DIR/outbox. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "SMTP_URL must start with smtp:// or smtps://, such as smtp://user:pass@mail.example:587")
    .optional(),
  /** Who our emails come from. */
  MAIL_FROM: z.string().min(3).default("Everlight <no-reply@everlight.uk>"),
  /** Where copies of contact messages go; the support address shown on the site is app/utils/site.ts. */
  SUPPORT_EMAIL: z.email({ error: "SUPPORT_EMAIL must be an email address" }).default("support@everlight.uk"),
  /** The site's own address, for links in emails (never taken from a request's Host header). */
  PUBLIC_URL: z.url({ error: "PUBLIC_URL must be the site's address, such as https://everlight.uk" }).optional(),
  /**
   * RSS or Atom feeds the news fetch reads (issue 18), comma-separated, e.g. a newspaper's obituaries feed.
   * Unset: no feeds, and the administrators are told how to add one.
   */
  NEWS_FEEDS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const urls = (value ?? "").split(",").map((u) => u.trim()).filter(Boolean);
      for (const url of urls) {
        if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) {
          ctx.addIssue({ code: "custom", message: `NEWS_FEEDS must be http:// or https:// addresses separated by commas; "${url.slice(0, 100)}" is not one` });
        }
      }
      return [...new Set(urls)];
    }),
  /** How often page views counted in memory are written (ms); 0 writes each before the page is answered. */
  VIEW_FLUSH_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /** Sets HSTS; defaults to on in production. */
  HSTS: z.enum(["true", "false"]).optional(),
});

export type Env = z.infer<typeof envSchema> & { dataDir: string };

let cached: Env | undefined;

/** The process's configuration, checked once (a clear message at start-up names every problem). */
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Checks a set of variables; an empty or blank one (as in a copied .env.example) means "not set". */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const parsed = checked(envSchema, source);
  return { ...parsed, dataDir: path.resolve(parsed.DATA_DIR) };
}

/** The AI writers' variables alone, read afresh each time (they may be set while the server runs in tests), checked by the same rules. */
export function readAiVariables(source: Record<string, string | undefined> = process.env) {
  return checked(z.object(aiVariables), source);
}

function checked<S extends z.ZodType>(schema: S, source: Record<string, string | undefined>): z.output<S> {
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v.trim() !== "")));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid environment configuration:\n${problems}\nSee .env.example.`);
  }
  return parsed.data;
}

/** The site's address for links in emails: PUBLIC_URL, else this server on localhost (local use). */
export function publicUrl(env: Env = getEnv()): string {
  return (env.PUBLIC_URL ?? `http://localhost:${env.PORT || 3000}`).replace(/\/+$/, "");
}

/** Whether cookies are sent Secure: SESSION_COOKIE_SECURE when set, else in production. One rule for every cookie. */
export function secureCookies(env: Env = getEnv()): boolean {
  return env.SESSION_COOKIE_SECURE ? env.SESSION_COOKIE_SECURE === "true" : env.NODE_ENV === "production";
}
