import { existsSync, readdirSync, readFileSync } from "node:fs";

/**
 * The link of the newest co-manager invitation emailed to `to` and not in `seen` (the test server's
 * outbox on disk, as no SMTP server is set); waits for the mail worker up to 20 seconds.
 */
export async function invitationLink(dataDir: string, to: string, seen: Set<string> = new Set()): Promise<string> {
  const outbox = `${dataDir}/outbox`;
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (existsSync(outbox)) {
      for (const f of readdirSync(outbox)) {
        if (seen.has(f)) continue;
        const text = readFileSync(`${outbox}/${f}`, "utf8");
        if (!text.includes(to) || !text.includes("help manage the memorial")) continue;
        const m = /\/invitations\/([A-Za-z0-9_%-]+)/.exec(text.replace(/=\r?\n/g, ""));
        if (m) {
          seen.add(f);
          return `/invitations/${m[1]}`;
        }
      }
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no invitation email to ${to}`);
}

/**
 * The text of every email in the test server's outbox sent to `to` with `subject` in it (soft line breaks
 * decoded), once there is at least one (the mail worker sends soon after the request): waits up to `waitMs`.
 */
export async function mailsTo(dataDir: string, to: string, subject: string, waitMs = 20_000): Promise<string[]> {
  const outbox = `${dataDir}/outbox`;
  const deadline = Date.now() + waitMs;
  for (;;) {
    const found = existsSync(outbox)
      ? readdirSync(outbox)
          .map((f) => readFileSync(`${outbox}/${f}`, "utf8").replace(/=\r?\n/g, ""))
          .filter((text) => text.includes(to) && text.includes(subject))
      : [];
    if (found.length || Date.now() > deadline) return found;
    await new Promise((r) => setTimeout(r, 200));
  }
}
