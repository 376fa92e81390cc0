import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readBody } from "./read-body";

// A local stand-in for OpenAI's chat completions: the real
// `openai` package talks to it through OPENAI_BASE_URL. It answers POST /v1/chat/completions as JSON,
// or, for `stream: true`, as server-sent events (`data: {chunk}` … `data: [DONE]`), records every
// request, and can be told to fail (an error status) or to hang (never answer) to test timeouts.

export type ChatMessage = { role: string; content: string };
export type RecordedRequest = { method: string; path: string; headers: IncomingMessage["headers"]; body: any };

/** What the server does with the next requests: answer text (whole, or in these stream pieces), fail or hang. */
export type Behaviour = { reply: string; pieces?: string[] } | { status: number; message?: string } | { hang: true };

export type OpenAiTestServer = {
  /** The base URL to give the SDK (ends in /v1). */
  baseURL: string;
  requests: RecordedRequest[];
  /** Changes what the following requests get (default: a short reply). */
  behave: (behaviour: Behaviour | ((body: any) => Behaviour)) => void;
  /** The system and user messages of the last request. */
  lastMessages: () => { system: string; user: string };
  stop: () => Promise<void>;
};

export async function startOpenAiServer(): Promise<OpenAiTestServer> {
  const requests: RecordedRequest[] = [];
  let behaviour: Behaviour | ((body: any) => Behaviour) = { reply: "A short reply." };

  const server = createServer(async (req, res) => {
    const raw = await readBody(req);
    let body: any = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = raw;
    }
    requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
    if (req.method !== "POST" || req.url !== "/v1/chat/completions")
      return sendJson(res, 404, { error: { message: "Not found", type: "invalid_request_error" } });
    const now = typeof behaviour === "function" ? behaviour(body) : behaviour;
    if ("hang" in now) return; // never answers; stop() cuts the connection
    if ("status" in now) return sendJson(res, now.status, { error: { message: now.message ?? "The server had an error", type: "server_error" } });
    const model = body?.model ?? "test-model";
    if (body?.stream) return streamReply(res, model, now.pieces ?? splitWords(now.reply));
    sendJson(res, 200, {
      id: "chatcmpl-test",
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message: { role: "assistant", content: now.reply, refusal: null }, logprobs: null, finish_reason: "stop" }],
      usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    behave: (b) => {
      behaviour = b;
    },
    lastMessages: () => {
      const messages: ChatMessage[] = requests.at(-1)?.body?.messages ?? [];
      return { system: messages.find((m) => m.role === "system")?.content ?? "", user: messages.find((m) => m.role === "user")?.content ?? "" };
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function sendJson(res: ServerResponse, status: number, data: unknown) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(data));
}

/** Words with their following space, so the pieces join back into the reply. */
function splitWords(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [text];
}

async function streamReply(res: ServerResponse, model: string, pieces: string[]) {
  res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", Connection: "keep-alive" });
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    `data: ${JSON.stringify({ id: "chatcmpl-test", object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
  res.write(chunk({ role: "assistant", content: "" }, null));
  for (const piece of pieces) {
    res.write(chunk({ content: piece }, null));
    // A pause between pieces, as a real model has, so readers see them arrive separately.
    await new Promise((r) => setTimeout(r, 5));
  }
  res.write(chunk({}, "stop"));
  res.end("data: [DONE]\n\n");
}
