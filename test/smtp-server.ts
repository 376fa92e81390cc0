import { createServer, type Server } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

// A real SMTP server on 127.0.0.1 for the email tests: the real nodemailer talks to
// it as to any mail server; every message it receives is parsed back (mailparser) for the test to read.
// It can be stopped and started again on the same port, to play a mail server that is down.

export type TestSmtp = {
  url: string;
  port: number;
  received: ParsedMail[];
  /** The raw SMTP envelope recipients of each message, in order. */
  recipients: string[][];
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Waits until `count` messages have arrived (or fails after `ms`). */
  waitFor(count: number, ms?: number): Promise<ParsedMail[]>;
  /**
   * Keeps the sender waiting on the next messages (their data is not acknowledged) until released: a
   * mail worker busy sending, so that what is queued meanwhile is composed later. `holding` settles
   * when a message is being held.
   */
  hold(): { holding: Promise<void>; release(): void };
};

/** A port nobody listens on (for "the mail server is down"). */
export async function freePort(): Promise<number> {
  const probe: Server = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export async function startSmtp(port?: number): Promise<TestSmtp> {
  const received: ParsedMail[] = [];
  const recipients: string[][] = [];
  const chosen = port ?? (await freePort());
  let server: SMTPServer | undefined;
  let gate: { reached: () => void; released: Promise<void> } | null = null;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = new SMTPServer({
        authOptional: true,
        disabledCommands: ["STARTTLS"],
        logger: false,
        onData(stream, session, callback) {
          const held = gate;
          held?.reached();
          simpleParser(stream)
            .then(async (mail) => {
              await held?.released;
              received.push(mail);
              recipients.push(session.envelope.rcptTo.map((r) => r.address));
              callback();
            })
            .catch(callback);
        },
      });
      server.on("error", reject);
      server.listen(chosen, "127.0.0.1", () => resolve());
    });
  await listen();
  return {
    url: `smtp://127.0.0.1:${chosen}`,
    port: chosen,
    received,
    recipients,
    stop: () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
    start: listen,
    hold() {
      let reached!: () => void;
      let release!: () => void;
      const holding = new Promise<void>((resolve) => (reached = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      gate = { reached, released };
      return {
        holding,
        release: () => {
          gate = null;
          release();
        },
      };
    },
    async waitFor(count, ms = 10_000) {
      const deadline = Date.now() + ms;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`Expected ${count} emails, got ${received.length}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return received;
    },
  };
}

/** The first link in an email's text that starts with `prefix`. */
export function linkIn(mail: ParsedMail, prefix: string): string {
  const match = (mail.text ?? "").match(new RegExp(`${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[^\\s\\]>)]+`));
  if (!match) throw new Error(`No link starting ${prefix} in:\n${mail.text}`);
  // A sentence may end right after a link.
  return match[0].replace(/[.,;:!?]+$/, "");
}
