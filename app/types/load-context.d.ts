import "react-router";

declare module "react-router" {
  interface AppLoadContext {
    /** The per-request Content-Security-Policy nonce (server/app.ts). */
    cspNonce: string;
    /** Set by the anonymous page cache: the tribute form's stamp, filled in per copy served. */
    formStamp?: string;
  }
}
