// The names of the anonymous forms' two spam-check fields (tributes, contact): rendered by
// AntiSpamFields in the browser and read by the form guard (request/form-guard.server.ts) and the
// /api on the server, so the two sides cannot drift apart. A plain module, so components may import it.

/** The honeypot: a field people never see; bots fill every field. */
export const HONEYPOT_FIELD = "website";
/** The signed "started at" stamp: a form sent back within seconds of being served is refused. */
export const STAMP_FIELD = "formStartedAt";
