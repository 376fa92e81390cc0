import os from "node:os";
import path from "node:path";
import { z } from "~/utils/validation/zod";

// One place that reads the environment. Every optional service has a
// local default so the app runs with nothing configured; .env.example lists every variable.

/** AI writing helpers (app/services/ai.server.ts): OpenAI or any compatible server; unset = offline writer. */
const aiVariables = {
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.url({ error: "OPENAI_BASE_URL must be a URL, such as http://127.0.0.1:11434/v1" }).optional(),
  OPENAI_MODEL: z.string().default("gpt-4o-mini"),
  OPENAI_TIMEOUT_MS: z.coerce.number().int().positive().default(20_000),
};

/**
 * Payments (app/services/payments.server.ts chooses; app/services/payments/ holds the providers): Stripe
 * when its keys are set, else the built-in test provider, which charges nothing. PAYMENT_PROVIDER=stripe insists on Stripe, so a deployment whose keys went missing
 * stops at start-up instead of quietly taking test payments.
 */
const paymentVariables = {
  PAYMENT_PROVIDER: z.enum(["stripe", "test"], { error: "PAYMENT_PROVIDER must be stripe or test" }).optional(),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, "STRIPE_SECRET_KEY must be a Stripe secret key (sk_live_… or sk_test_…)")
    .optional(),
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(/^pk_(test|live)_\w+$/, "STRIPE_PUBLISHABLE_KEY must be a Stripe publishable key (pk_live_… or pk_test_…)")
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, "STRIPE_WEBHOOK_SECRET must be a webhook signing secret (whsec_…)")
    .optional(),
  /** Another address for Stripe's API (the tests' local Stripe server); unset: api.stripe.com. */
  STRIPE_API_URL: z.url({ error: "STRIPE_API_URL must be a URL, such as http://127.0.0.1:12111" }).optional(),
};

const envSchema = z
  .object({
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
    /**
     * scrypt's cost as log2 N (app/services/password.server.ts): 17 is OWASP's figure and the default. The
     * test servers lower it, for speed only; a deployment never should. Each hash keeps its own parameters.
     */
    PASSWORD_HASH_COST: z.coerce
      .number()
      .int()
      .min(12, "PASSWORD_HASH_COST must be between 12 and 20")
      .max(20, "PASSWORD_HASH_COST must be between 12 and 20")
      .default(17),
    /** Comma-separated; the first signs new cookies, all verify (rotate by putting a new one first). */
    SESSION_SECRET: z
      .string()
      .optional()
      .refine((v) => !v || v.split(",").every((s) => s.trim().length >= 32), "each secret must be at least 32 characters"),
    /** Secure cookies; defaults to on in production. Off only for plain-http setups you trust. */
    SESSION_COOKIE_SECURE: z.enum(["true", "false"]).optional(),
    /**
     * Behind proxies: which may add to X-Forwarded-For (app/request/facts.server.ts): false, true (one proxy),
     * the number of proxies, or their addresses/subnets separated by commas (10.0.0.0/8,192.168.1.5).
     */
    TRUST_PROXY: z
      .string()
      .default("false")
      .refine(
        (v) => /^(?:true|false|\d+)$/i.test(v.trim()) || v.split(",").every((e) => /^[\da-f.:]+(?:\/\d{1,3})?$/i.test(e.trim())),
        "TRUST_PROXY must be true, false, the number of proxies in front of the app, or their addresses (10.0.0.0/8,192.168.1.5)",
      ),
    /** Media in an S3-compatible bucket instead of DATA_DIR/uploads (app/services/storage.server.ts). */
    S3_BUCKET: z.string().optional(),
    S3_REGION: z.string().default("us-east-1"),
    /** For S3-compatible services other than AWS (R2, MinIO…): their endpoint URL. */
    S3_ENDPOINT: z.url().optional(),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    S3_FORCE_PATH_STYLE: z.enum(["true", "false"]).optional(),
    ...aiVariables,
    ...paymentVariables,
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
    /** The vault's master keys (app/services/vault-crypto.server.ts); default DATA_DIR/vault-keys.json, made 0600 on first use. */
    VAULT_KEY_FILE: z.string().min(1).optional(),
    /**
     * RSS or Atom feeds the news fetch reads, comma-separated, e.g. a newspaper's obituaries feed.
     * Unset: no feeds, and the administrators are told how to add one.
     */
    NEWS_FEEDS: z
      .string()
      .optional()
      .transform((value, ctx) => {
        const urls = (value ?? "")
          .split(",")
          .map((u) => u.trim())
          .filter(Boolean);
        for (const url of urls) {
          if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) {
            ctx.addIssue({
              code: "custom",
              message: `NEWS_FEEDS must be http:// or https:// addresses separated by commas; "${url.slice(0, 100)}" is not one`,
            });
          }
        }
        return [...new Set(urls)];
      }),
    /**
     * How long a stop signal (a restart, a deployment) lets requests in flight finish before their
     * connections are closed (ms; server.js reads it, this checks it before the server listens).
     */
    STOP_GRACE_MS: z.coerce
      .number({ error: "STOP_GRACE_MS must be a whole number of milliseconds between 0 and 600000" })
      .int("STOP_GRACE_MS must be a whole number of milliseconds between 0 and 600000")
      .min(0, "STOP_GRACE_MS must be a whole number of milliseconds between 0 and 600000")
      .max(600_000, "STOP_GRACE_MS must be a whole number of milliseconds between 0 and 600000")
      .default(10_000),
    /**
     * How many server processes `npm start` runs (server.js, node:cluster, sharing the port): unset, one per
     * core on PostgreSQL and one on the embedded database, which only one process can open (processPlan below).
     */
    WORKERS: z.coerce
      .number({ error: "WORKERS must be a whole number of server processes, 1 or more (unset: one per core on PostgreSQL)" })
      .int("WORKERS must be a whole number of server processes, 1 or more (unset: one per core on PostgreSQL)")
      .min(1, "WORKERS must be a whole number of server processes, 1 or more (unset: one per core on PostgreSQL)")
      .max(256, "WORKERS must be at most 256 (one per core is what helps)")
      .optional(),
    /**
     * How often a backup is made by itself (app/models/backups): daily by default, once across instances, caught
     * up at the next start after downtime; off stops it (`npm run backup` still works).
     */
    BACKUP_SCHEDULE: z.enum(["hourly", "daily", "weekly", "off"], { error: "BACKUP_SCHEDULE must be hourly, daily, weekly or off" }).default("daily"),
    /** Which scheduled backups are kept: the newest of each of the last N days, weeks and months. */
    BACKUP_KEEP: z
      .string()
      .regex(/^\s*\d+d\s*,\s*\d+w\s*,\s*\d+m\s*$/, "BACKUP_KEEP must read like 7d,4w,12m: the daily, weekly and monthly backups to keep")
      .default("7d,4w,12m"),
    /** Where backups are written: this folder (default DATA_DIR/backups), or the bucket below when set. */
    BACKUP_DIR: z.string().min(1).optional(),
    /** Backups in an S3-compatible bucket (with the S3_REGION, S3_ENDPOINT and credentials above), under BACKUP_S3_PREFIX. */
    BACKUP_S3_BUCKET: z.string().optional(),
    BACKUP_S3_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9._/-]*$/, "BACKUP_S3_PREFIX may hold letters, digits, dots, dashes, underscores and slashes")
      .default("everlight-backups/"),
    /** How often page views counted in memory are written (ms); 0 writes each before the page is answered. */
    VIEW_FLUSH_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
    /** Sets HSTS; defaults to on in production. */
    HSTS: z.enum(["true", "false"]).optional(),
  })
  .superRefine((env, ctx) => {
    const keys = [env.STRIPE_SECRET_KEY, env.STRIPE_PUBLISHABLE_KEY].filter(Boolean).length;
    if (keys === 1) {
      ctx.addIssue({
        code: "custom",
        path: [env.STRIPE_SECRET_KEY ? "STRIPE_PUBLISHABLE_KEY" : "STRIPE_SECRET_KEY"],
        message: "Stripe needs both STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY (or neither, for the built-in test payments)",
      });
    }
    if (env.PAYMENT_PROVIDER === "stripe" && keys === 0) {
      ctx.addIssue({
        code: "custom",
        path: ["PAYMENT_PROVIDER"],
        message:
          "PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY; without them the shop would take test payments that charge nothing",
      });
    }
    if (paymentProviderOf(env) === "stripe" && keys === 2 && !env.STRIPE_WEBHOOK_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["STRIPE_WEBHOOK_SECRET"],
        message:
          "Stripe needs STRIPE_WEBHOOK_SECRET (the signing secret of the webhook to /api/stripe/webhook): without it a buyer who closes the page after paying gets no order",
      });
    }
  });

/** Which payment provider this configuration uses: Stripe when asked or when its keys are set. */
function paymentProviderOf(env: { PAYMENT_PROVIDER?: "stripe" | "test"; STRIPE_SECRET_KEY?: string; STRIPE_PUBLISHABLE_KEY?: string }): "stripe" | "test" {
  if (env.PAYMENT_PROVIDER) return env.PAYMENT_PROVIDER;
  return env.STRIPE_SECRET_KEY && env.STRIPE_PUBLISHABLE_KEY ? "stripe" : "test";
}

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

export type PaymentSettings = { provider: "test" } | { provider: "stripe"; secretKey: string; publishableKey: string; webhookSecret: string; apiUrl?: string };

/** The payment provider and its keys, as checked at start-up (app/services/payments.server.ts). */
export function paymentSettings(env: Env = getEnv()): PaymentSettings {
  if (paymentProviderOf(env) === "test") return { provider: "test" };
  return {
    provider: "stripe",
    secretKey: env.STRIPE_SECRET_KEY!,
    publishableKey: env.STRIPE_PUBLISHABLE_KEY!,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET!,
    apiUrl: env.STRIPE_API_URL,
  };
}

/** Whether cookies are sent Secure: SESSION_COOKIE_SECURE when set, else in production. One rule for every cookie. */
export function secureCookies(env: Env = getEnv()): boolean {
  return env.SESSION_COOKIE_SECURE ? env.SESSION_COOKIE_SECURE === "true" : env.NODE_ENV === "production";
}

/**
 * How many server processes to run (server.js): WORKERS, else one per core on PostgreSQL; always one on the
 * embedded database (PGlite keeps its files open in one process), with a warning when more were asked for.
 */
export function processPlan(env: Env = getEnv(), cores = os.availableParallelism()): { workers: number; warning?: string } {
  if (!env.DATABASE_URL) {
    if ((env.WORKERS ?? 1) > 1) {
      return {
        workers: 1,
        warning: `WORKERS=${env.WORKERS} is ignored: the embedded database (PGlite) can be opened by one process only, so one runs. Set DATABASE_URL to a PostgreSQL server to run several.`,
      };
    }
    return { workers: 1 };
  }
  return { workers: env.WORKERS ?? cores };
}
