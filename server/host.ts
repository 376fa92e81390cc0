import type { NextFunction, Request, Response } from "express";
import { REFUSALS, sendRefusal } from "./refusals";

// The Host header names the site a request is for, and the server builds the request's address from it
// (request-handler.ts, page-cache.ts). One that no address can hold — empty, "[::1", "x:99999999",
// "a b" — is the client's mistake: a 400 before anything reads it, never a 500 from the address that
// could not be built. HTTP/1.0 may leave Host out; the server then says localhost.

/** host[:port] as an address can hold it: a name or an [IP literal], and a port up to 65535. */
export function isReadableHost(host: string): boolean {
  if (host.length === 0 || host.length > 255 || !/^(?:[a-z0-9._~!$&'()*+,;=-]+|\[[0-9a-f:.]+\])(?::\d{0,5})?$/i.test(host)) return false;
  try {
    new URL(`http://${host}/`);
    return true;
  } catch {
    return false;
  }
}

/** Refuses a request whose Host header is there but unreadable (Express middleware; runs first). */
export function refuseUnreadableHost(req: Request, res: Response, next: NextFunction) {
  const host = req.headers.host;
  if (host === undefined || isReadableHost(host)) return next();
  const api = req.path === "/api" || req.path.startsWith("/api/");
  sendRefusal(req, res, { ...REFUSALS.unreadableHost, api });
}
