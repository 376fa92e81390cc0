import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { getEnv } from "./env.server";

// Sending one email: nodemailer over SMTP when SMTP_URL is set; with nothing configured each
// message is written as a .eml file under DATA_DIR/outbox (any mail program opens one) and a line is
// logged, so a fresh install works and anyone can see what would have been sent. Which messages to send,
// and when, is the outbox's business (app/models/mail/outbox.server.ts, server/mail-worker.ts).

export type OutgoingMail = {
  to: string;
  subject: string;
  html: string;
  text: string;
  headers?: Record<string, string>;
  /** Our own message id, so a message retried after a lost answer can be recognised as the same one. */
  messageId?: string;
};

export type MailTransport = { name: "smtp" | "outbox"; send(mail: OutgoingMail): Promise<void>; close(): void };

/** The transport for the configured environment. */
export function createMailTransport(env = getEnv()): MailTransport {
  const from = env.MAIL_FROM;
  if (env.SMTP_URL) {
    // Short timeouts: a mail server that is down delays mail (the outbox retries), it must not hold the worker.
    const url = new URL(env.SMTP_URL);
    for (const [name, ms] of [
      ["connectionTimeout", 10_000],
      ["greetingTimeout", 10_000],
      ["socketTimeout", 30_000],
    ] as const) {
      if (!url.searchParams.has(name)) url.searchParams.set(name, String(ms));
    }
    const transporter: Transporter = nodemailer.createTransport(url.toString());
    return {
      name: "smtp",
      send: async (mail) => void (await transporter.sendMail({ from, ...mail })),
      close: () => transporter.close(),
    };
  }
  const folder = path.join(env.dataDir, "outbox");
  const writer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    name: "outbox",
    send: async (mail) => {
      const info = await writer.sendMail({ from, ...mail });
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${safeName(mail.to)}-${Math.random().toString(36).slice(2, 8)}.eml`;
      const file = path.join(folder, name);
      // Written beside the folder, then moved in: whoever reads the outbox (a mail program, a test waiting for a
      // message) never finds a message half written.
      const part = path.join(env.dataDir, `.outbox-${name}.part`);
      writeFileSync(part, info.message as Buffer, { mode: 0o600 });
      renameSync(part, file);
      console.log(`Email to ${mail.to} ("${mail.subject}") written to ${file} (no SMTP_URL set)`);
    },
    close: () => {},
  };
}

function safeName(address: string) {
  return address.replace(/[^a-z0-9@._-]/gi, "_").slice(0, 60);
}
