import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import type { NextFunction, Request, Response } from "express";
import { BodyTooLargeError } from "~/request/multipart.server";

// Request bodies are read only through this module: counted
// as they arrive, never past their bound, and never left half-read on a connection that is kept open.
//
// Why the last part matters: once an answer has gone out early (a 413, a redirect to sign in, a 404)
// the unread rest of the body is still on its way. HTTP/1.1 reads the next request on the same
// connection only after it, and browsers and proxies reuse connections, so an unread upload would hang
// the next page on that connection. So when an answer is sent before its body was read, the rest is
// read and thrown away if it is small, and the connection is closed (`Connection: close`) if it is not.
// Closed gently: the answer goes out, then the server stops writing but reads and drops what still
// arrives for a moment ("lingering close"). Closing at once with unread bytes makes the kernel send a
// reset, and a client still uploading (a browser, fetch) may then lose the answer it was sent and
// show "connection reset" instead of "File too large".

/** Up to this much of a refused body is read and dropped to keep the connection; beyond, it is closed. */
export const DRAIN_MAX_BYTES = 1024 * 1024;

/** How long a closing connection keeps reading (and dropping) what a client is still sending. */
export const LINGER_MS = 2000;

const bytesRead = new WeakMap<IncomingMessage, number>();

/** Whether the request says it carries a body at all. */
export function hasBody(req: IncomingMessage) {
  const length = req.headers["content-length"];
  if (length !== undefined) return Number(length) !== 0;
  return req.headers["transfer-encoding"] !== undefined;
}

/** The Content-Length the client declared, or null (chunked, or nonsense). */
function declaredLength(req: IncomingMessage): number | null {
  const value = Number(req.headers["content-length"]);
  return req.headers["content-length"] !== undefined && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

/**
 * Express middleware, first in the chain: whatever answers a request with a body (a route, the
 * cross-origin check, a 404), the connection is left ready for the next request.
 */
export function keepConnectionsUsable(req: Request, res: Response, next: NextFunction) {
  if (!hasBody(req)) return next();
  let drain = false;
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: Parameters<Response["writeHead"]>) {
    if (!req.complete && !this.headersSent) {
      const declared = declaredLength(req);
      const remaining = declared === null ? Infinity : declared - (bytesRead.get(req) ?? 0);
      if (remaining <= DRAIN_MAX_BYTES) drain = true;
      else {
        this.setHeader("Connection", "close");
        lingerOnClose(req.socket);
      }
    }
    return writeHead.apply(this, args) as Response;
  } as Response["writeHead"];
  res.on("finish", () => {
    if (drain && !req.complete) discardRest(req);
  });
  next();
}

/** Node ends a `Connection: close` socket with destroySoon(); this one first reads out the client's sending. */
function lingerOnClose(socket: Socket) {
  socket.destroySoon = function (this: Socket) {
    if (this.writable) this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS).unref();
    this.once("end", () => this.destroy());
    this.once("close", () => clearTimeout(timer));
    this.resume();
  };
}

function discardRest(req: IncomingMessage) {
  let total = bytesRead.get(req) ?? 0;
  req.on("data", (chunk: Buffer) => {
    total += chunk.length;
    if (total > DRAIN_MAX_BYTES) req.destroy();
  });
  req.on("error", () => {});
  req.resume();
}

/** The next chunk of the body (paused mode, so nothing is read that nobody asked for), or null at its end. */
function nextChunk(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const cleanUp = () => {
      req.off("readable", tryRead);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
    };
    function tryRead() {
      const chunk = req.read() as Buffer | null;
      if (chunk !== null) {
        cleanUp();
        bytesRead.set(req, (bytesRead.get(req) ?? 0) + chunk.length);
        resolve(chunk);
        return true;
      }
      if (req.readableEnded) {
        cleanUp();
        resolve(null);
        return true;
      }
      return false;
    }
    const onEnd = () => (cleanUp(), resolve(null));
    const onError = (error: Error) => (cleanUp(), reject(error));
    const onClose = () => (cleanUp(), req.readableEnded ? resolve(null) : reject(new Error("The client closed the connection")));
    if (tryRead()) return;
    req.on("readable", tryRead);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
}

/**
 * The whole body, if it is at most `maxBytes`; otherwise a BodyTooLargeError, with nothing more read
 * than the bound (a declared Content-Length above it is refused before reading a byte).
 */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = declaredLength(req);
  if (declared !== null && declared > maxBytes) throw new BodyTooLargeError(maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for (let chunk = await nextChunk(req); chunk; chunk = await nextChunk(req)) {
    size += chunk.length;
    if (size > maxBytes) throw new BodyTooLargeError(maxBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * The body as a web stream for a route that reads it itself (file uploads), read only as the route
 * asks for it and failing with a BodyTooLargeError past `maxBytes`, so a route that forgot its own
 * bound still cannot read more. `onOverflow` is told when that happens.
 */
export function boundedBodyStream(req: IncomingMessage, maxBytes: number, onOverflow: () => void): ReadableStream<Uint8Array> {
  let size = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const chunk = await nextChunk(req);
        if (chunk === null) return controller.close();
        size += chunk.length;
        if (size > maxBytes) {
          onOverflow();
          return controller.error(new BodyTooLargeError(maxBytes));
        }
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length));
      },
    },
    { highWaterMark: 0 },
  );
}
