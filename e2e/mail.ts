import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { simpleParser, type ParsedMail } from "mailparser";

// The e2e server has no SMTP_URL, so every email is written as an .eml file under its DATA_DIR/outbox
// (app/services/mail.server.ts); journeys read them there, as a person would read their inbox.

function outbox() {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error("E2E_DATA_DIR is not set: the e2e global setup did not run.");
  return path.join(dir, "outbox");
}

function filesTo(address: string): string[] {
  const mark = address.replace(/[^a-z0-9@._-]/gi, "_").slice(0, 60);
  try {
    return readdirSync(outbox())
      .filter((f) => f.endsWith(".eml") && f.includes(mark))
      .sort();
  } catch {
    return [];
  }
}

/** How many emails have been written to this address so far. */
export function countMailTo(address: string): number {
  return filesTo(address).length;
}

/** The newest email to `address` beyond the first `seen` ones, waiting up to `ms` for it to be written. */
export async function nextMailTo(address: string, seen = 0, ms = 10_000): Promise<ParsedMail> {
  const deadline = Date.now() + ms;
  for (;;) {
    const files = filesTo(address);
    if (files.length > seen) return simpleParser(readFileSync(path.join(outbox(), files[files.length - 1])));
    if (Date.now() > deadline) throw new Error(`No email to ${address} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The first link in the email's text with this path, on the test server rather than PUBLIC_URL's host. */
export function linkTo(mail: ParsedMail, pathname: string): string {
  const match = (mail.text ?? "").match(new RegExp(`https?://[^\\s/]+${pathname.replace(/[?]/g, "\\?")}[^\\s\\]>)]*`));
  if (!match) throw new Error(`No ${pathname} link in:\n${mail.text}`);
  const url = new URL(match[0].replace(/[.,;:!?]+$/, ""));
  return url.pathname + url.search + url.hash;
}

/**
 * The email to `address` whose subject is `subject`, waiting up to `ms` for it: for a shared address
 * (the support mailbox) that other tests write to at the same time.
 */
export async function mailWithSubject(address: string, subject: string, ms = 10_000): Promise<ParsedMail> {
  const deadline = Date.now() + ms;
  const read = new Set<string>();
  for (;;) {
    for (const file of filesTo(address)) {
      if (read.has(file)) continue;
      read.add(file);
      const mail = await simpleParser(readFileSync(path.join(outbox(), file)));
      if (mail.subject === subject) return mail;
    }
    if (Date.now() > deadline) throw new Error(`No email to ${address} about "${subject}" within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
