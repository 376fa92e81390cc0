import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FEEDBACK_MESSAGES } from "~/utils/feedback";
import { client, registerMember, startServer, type TestServer } from "../../../test/http";

// The feedback popup's /api over real HTTP: popup state (read, complete, skip) and
// feedback (the caller's own list, save), each signed in, signed out and with bad input.

let server: TestServer;

const member = () => registerMember(server.url, { firstName: "Fern", lastName: "Feedback" });

const ANSWERS = { ease_of_use: "4", feature_satisfaction: ["Photo/video uploads", "Overall design"], improvement_suggestions: "Darker text, please." };
const body = (over: Record<string, unknown> = {}) => ({ type: "ux_feedback", content: JSON.stringify(ANSWERS), rating: 4, ...over });

beforeAll(async () => {
  server = await startServer();
}, 90_000);
afterAll(async () => {
  await server?.stop();
});

describe("popup state", () => {
  it("starts with the defaults, then counts skips and records completion", async () => {
    const { api } = await member();
    const first = await api.get("/api/popup-state/ux_feedback");
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("private, no-store");
    expect(first.json).toEqual({ popupType: "ux_feedback", completed: false, skipCount: 0 });

    expect((await api.post("/api/popup-state/ux_feedback/skip")).json).toEqual({ popupType: "ux_feedback", completed: false, skipCount: 1 });
    expect((await api.post("/api/popup-state/ux_feedback/skip")).json.skipCount).toBe(2);
    const complete = await api.post("/api/popup-state/ux_feedback/complete");
    expect(complete.status).toBe(200);
    expect(complete.json).toEqual({ popupType: "ux_feedback", completed: true, skipCount: 2 });
    expect((await api.get("/api/popup-state/ux_feedback")).json).toEqual({ popupType: "ux_feedback", completed: true, skipCount: 2 });
  });

  it("keeps each member's state apart", async () => {
    const one = await member();
    const two = await member();
    await one.api.post("/api/popup-state/ux_feedback/skip");
    expect((await two.api.get("/api/popup-state/ux_feedback")).json.skipCount).toBe(0);
  });

  it("answers 404 for any other popup type or event, and 405 for the wrong method", async () => {
    const { api } = await member();
    for (const [method, path] of [
      ["GET", "/api/popup-state/newsletter"],
      ["POST", "/api/popup-state/newsletter/skip"],
      ["POST", "/api/popup-state/newsletter/complete"],
      ["POST", "/api/popup-state/ux_feedback/dismiss"],
    ] as const) {
      const res = await api.request(method, path);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json).toEqual({ message: "Popup not found" });
    }
    expect((await api.get("/api/popup-state/ux_feedback/skip")).status).toBe(405);
    expect((await api.post("/api/popup-state/ux_feedback")).status).toBe(405);
    expect((await api.get("/api/popup-state/ux_feedback")).json.skipCount).toBe(0);
  });

  it("answers 401 with a message when signed out", async () => {
    const visitor = client(server.url);
    for (const [method, path] of [
      ["GET", "/api/popup-state/ux_feedback"],
      ["POST", "/api/popup-state/ux_feedback/skip"],
      ["POST", "/api/popup-state/ux_feedback/complete"],
    ] as const) {
      const res = await visitor.request(method, path);
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.json).toEqual({ message: "Not signed in" });
    }
  });

  it("refuses a skip from another site", async () => {
    const { api } = await member();
    const res = await api.post("/api/popup-state/ux_feedback/skip", undefined, { headers: { "Sec-Fetch-Site": "cross-site" } });
    expect(res.status).toBe(403);
    expect((await api.get("/api/popup-state/ux_feedback")).json.skipCount).toBe(0);
  });
});

describe("feedback", () => {
  it("saves the answers and lists only the caller's own feedback", async () => {
    const { api, id } = await member();
    const other = await member();
    const res = await api.post("/api/feedback", body());
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ userId: id, type: "ux_feedback", rating: 4 });
    // Stored as the JSON string of the answers keyed by question id, the rating read as an integer.
    expect(JSON.parse(res.json.content)).toEqual({ ...ANSWERS, ease_of_use: 4 });
    expect(new Date(res.json.createdAt).toISOString()).toBe(res.json.createdAt);

    expect((await other.api.post("/api/feedback", body({ rating: null, content: JSON.stringify({ ...ANSWERS, ease_of_use: 2 }) }))).json.rating).toBe(2);
    const mine = await api.get("/api/feedback");
    expect(mine.status).toBe(200);
    expect(mine.json).toHaveLength(1);
    expect(mine.json[0]).toMatchObject({ id: res.json.id, userId: id, type: "ux_feedback" });
    expect((await other.api.get("/api/feedback")).json.map((f: { userId: string }) => f.userId)).toEqual([other.id]);
  });

  it("takes one ux_feedback per member", async () => {
    const { api } = await member();
    expect((await api.post("/api/feedback", body())).status).toBe(201);
    const again = await api.post("/api/feedback", body());
    expect(again.status).toBe(409);
    expect(again.json).toEqual({ message: FEEDBACK_MESSAGES.already });
    expect((await api.get("/api/feedback")).json).toHaveLength(1);
  });

  it.each([
    ["an unknown type", body({ type: "survey" }), "type"],
    ["content that is not JSON", body({ content: "great!" }), "content"],
    ["content that is not an object", body({ content: "[1,2]" }), "content"],
    ["content without a rating", body({ content: JSON.stringify({ ...ANSWERS, ease_of_use: "" }), rating: null }), "content.ease_of_use"],
    ["a rating out of range in the content", body({ content: JSON.stringify({ ...ANSWERS, ease_of_use: 6 }), rating: null }), "content.ease_of_use"],
    ["no feature chosen", body({ content: JSON.stringify({ ...ANSWERS, feature_satisfaction: [] }) }), "content.feature_satisfaction"],
    ["an unknown feature", body({ content: JSON.stringify({ ...ANSWERS, feature_satisfaction: ["Fireworks"] }) }), "content.feature_satisfaction.0"],
    ["suggestions too long", body({ content: JSON.stringify({ ...ANSWERS, improvement_suggestions: "x".repeat(2001) }) }), "content.improvement_suggestions"],
    ["a rating that is not an integer", body({ rating: 4.5 }), "rating"],
    ["a rating out of range", body({ rating: 0 }), "rating"],
    ["a rating other than the ease_of_use answer", body({ rating: 5 }), "rating"],
    ["content as an object rather than a string", body({ content: ANSWERS }), "content"],
  ])("refuses %s with 400 and the field's message", async (_, payload, field) => {
    const { api } = await member();
    const res = await api.post("/api/feedback", payload);
    expect(res.status).toBe(400);
    expect(typeof res.json.message).toBe("string");
    expect(Object.keys(res.json.errors)).toContain(field);
    expect((await api.get("/api/feedback")).json).toEqual([]);
  });

  it("refuses a body that is not JSON", async () => {
    const { api } = await member();
    expect(
      (await api.request("POST", "/api/feedback", { body: "type=ux_feedback", headers: { "Content-Type": "application/x-www-form-urlencoded" } })).status,
    ).toBe(415);
    const malformed = await api.request("POST", "/api/feedback", { body: "{", headers: { "Content-Type": "application/json" } });
    expect(malformed.status).toBe(400);
    expect(malformed.json.message).toBe("The request body is not valid JSON");
  });

  it("answers 401 with a message when signed out, and 403 to another site", async () => {
    const visitor = client(server.url);
    const list = await visitor.get("/api/feedback");
    expect(list.status).toBe(401);
    expect(list.json).toEqual({ message: "Not signed in" });
    expect((await visitor.post("/api/feedback", body())).status).toBe(401);
    const { api } = await member();
    expect((await api.post("/api/feedback", body(), { headers: { "Sec-Fetch-Site": "cross-site" } })).status).toBe(403);
    expect((await api.get("/api/feedback")).json).toEqual([]);
  });
});
