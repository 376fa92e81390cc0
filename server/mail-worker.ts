import { isEmailKind, renderEmail } from "~/emails";
import { claimDueMail, markMailFailed, markMailSent, markMailSkipped } from "~/models/mail/outbox.server";
import { composeMail } from "~/models/mail/compose.server";
import { createMailTransport, type MailTransport } from "~/services/mail.server";

// The worker that delivers the email outbox (app/models/mail/outbox.server.ts), running in the server process:
// it wakes every second (so mail queued by any instance goes out promptly), claims what is due, and sends
// each message; a failure is put back for later. Pages never wait for it.

export type DeliveryReport = { sent: number; skipped: number; failed: number };

/** Sends every message due at `now` (in batches); used by the worker and by tests, which pass the time. */
export async function deliverDueMail(transport: MailTransport, now = new Date(), batch = 10): Promise<DeliveryReport> {
  const report: DeliveryReport = { sent: 0, skipped: 0, failed: 0 };
  for (;;) {
    const rows = await claimDueMail(now, batch);
    for (const row of rows) {
      try {
        const composed = isEmailKind(row.kind) ? await composeMail(row) : { skip: `no email of kind ${row.kind}` };
        if ("skip" in composed) {
          await markMailSkipped(row.id, composed.skip);
          report.skipped++;
          continue;
        }
        const rendered = await renderEmail(composed.kind, composed.props as never);
        await transport.send({ to: composed.to, ...rendered, headers: composed.headers, messageId: `<${row.id}@everlight.outbox>` });
        await markMailSent(row.id, now);
        report.sent++;
      } catch (error) {
        console.warn(`Email ${row.id} (${row.kind}) not sent, attempt ${row.attempts}: ${error instanceof Error ? error.message : error}`);
        await markMailFailed(row, error, now).catch((e) => console.error("Could not record the failed email:", e));
        report.failed++;
      }
    }
    if (rows.length < batch) return report;
  }
}

export type MailWorker = { stop(): Promise<void> };

/** Delivers due mail every `intervalMs` until stopped (the server stops it before closing the database). */
export function startMailWorker({ transport = createMailTransport(), intervalMs = 1000 }: { transport?: MailTransport; intervalMs?: number } = {}): MailWorker {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let current: Promise<unknown> = Promise.resolve();
  const tick = () => {
    current = deliverDueMail(transport)
      .catch((error) => console.error("The mail worker stumbled:", error))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs).unref();
      });
  };
  tick();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current;
      transport.close();
    },
  };
}
