import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FRIEND_MESSAGES } from "~/utils/validation/friends";
import { client, registerMember, startServer, type ApiResponse, type Client, type TestServer } from "../../../test/http";

// The friends /api over real HTTP: the whole
// path from search to friendship and back, the friends-only memorial (page, file, /api) opening and closing
// with it, and every error the /api can answer, with its words.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
}, 90_000);
afterAll(async () => server?.stop());

type Member = { api: Client; id: string; email: string };
async function member(firstName = "Fran"): Promise<Member> {
  const { api, id } = await registerMember(server.url, { firstName, lastName: "Friend" });
  return { api, id, email: (await api.get("/api/auth/user")).json.email };
}

const expectError = (res: ApiResponse, status: number, message: string) => {
  expect(res.status, res.text.slice(0, 300)).toBe(status);
  expect(res.json.message).toBe(message);
};

const png = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: "#88a" } })
    .png()
    .toBuffer();

describe("friends over HTTP", () => {
  it("search, request, accept; the friends-only memorial opens on page, file and /api; remove closes it again", async () => {
    const ann = await member("Ann");
    const bob = await member("Bob");
    const memorial = (await bob.api.post("/api/memorials", { firstName: "Friends", lastName: "Only", visibility: "friends", isPublished: true })).json;
    const media = await bob.api.post(`/api/memorials/${memorial.id}/media`, {
      mediaData: `data:image/png;base64,${(await png()).toString("base64")}`,
      fileName: "p.png",
      fileType: "image/png",
    });
    expect(media.status).toBe(201);
    const closed = async () => {
      expect((await ann.api.get(`/memorials/${memorial.id}`)).status).toBe(403);
      expect((await ann.api.get(media.json.mediaUrl)).status).toBe(404);
      expect((await ann.api.get(`/api/memorials/${memorial.id}`)).status).toBe(404);
    };
    await closed();

    const search = await ann.api.get(`/api/friends/search?email=${encodeURIComponent(bob.email.toUpperCase())}`);
    expect(search.status).toBe(200);
    expect(search.json).toEqual([
      {
        id: bob.id,
        firstName: "Bob",
        lastName: "Friend",
        email: bob.email,
        profileImageUrl: null,
        friendshipStatus: "none",
        requestId: null,
        requestAllowedFrom: null,
      },
    ]);

    const sent = await ann.api.post("/api/friends/request", { receiverId: bob.id });
    expect(sent.status).toBe(201);
    expect(sent.json).toMatchObject({ senderId: ann.id, receiverId: bob.id, status: "pending" });
    expect((await ann.api.get(`/api/friends/search?email=${bob.email}`)).json[0]).toMatchObject({ friendshipStatus: "pending_sent", requestId: sent.json.id });
    expect((await bob.api.get(`/api/friends/search?email=${ann.email}`)).json[0]).toMatchObject({
      friendshipStatus: "pending_received",
      requestId: sent.json.id,
    });
    expect((await ann.api.get("/api/friends/requests?direction=sent")).json.map((r: { id: string }) => r.id)).toEqual([sent.json.id]);

    const requests = await bob.api.get("/api/friends/requests");
    expect(requests.json).toEqual([
      {
        id: sent.json.id,
        status: "pending",
        createdAt: expect.any(String),
        sender: { id: ann.id, firstName: "Ann", lastName: "Friend", email: ann.email, profileImageUrl: null },
      },
    ]);
    // Only the receiver answers.
    expectError(await ann.api.post(`/api/friends/requests/${sent.json.id}/respond`, { response: "accepted" }), 404, FRIEND_MESSAGES.respondFailed);
    const accepted = await bob.api.post(`/api/friends/requests/${sent.json.id}/respond`, { response: "accepted" });
    expect(accepted.status).toBe(200);
    expect(accepted.json).toMatchObject({ status: "accepted", message: "Friend request accepted" });

    // At once: page, file, /api detail and list.
    expect((await ann.api.get(`/memorials/${memorial.id}`)).status).toBe(200);
    expect((await ann.api.get(media.json.mediaUrl)).status).toBe(200);
    expect((await ann.api.get(`/api/memorials/${memorial.id}`)).status).toBe(200);
    expect((await ann.api.get(`/api/memorials?userId=${bob.id}`)).json.map((m: { id: string }) => m.id)).toContain(memorial.id);
    const friends = await ann.api.get("/api/friends");
    expect(friends.json).toEqual([
      { id: bob.id, firstName: "Bob", lastName: "Friend", email: bob.email, profileImageUrl: null, friendsSince: expect.any(String) },
    ]);
    expect(friends.headers.get("x-total-count")).toBe("1");
    expect(friends.headers.get("cache-control")).toBe("private, no-store");
    expect((await bob.api.get("/api/friends")).json.map((f: { id: string }) => f.id)).toEqual([ann.id]);

    const removed = await bob.api.delete(`/api/friends/${ann.id}`);
    expect(removed.status).toBe(200);
    await closed();
    expect((await ann.api.get("/api/friends")).json).toEqual([]);
    expectError(await bob.api.delete(`/api/friends/${ann.id}`), 404, FRIEND_MESSAGES.removeFailed);
  });

  it("reject and cancel", async () => {
    const ann = await member();
    const bob = await member();
    const first = await ann.api.post("/api/friends/request", { receiverId: bob.id });
    expect((await bob.api.post(`/api/friends/requests/${first.json.id}/respond`, { response: "rejected" })).json).toMatchObject({ status: "rejected" });
    const after = (await ann.api.get(`/api/friends/search?email=${bob.email}`)).json[0];
    expect(after).toMatchObject({ friendshipStatus: "none", requestAllowedFrom: expect.any(String) });
    const again = await ann.api.post("/api/friends/request", { receiverId: bob.id });
    expectError(again, 409, FRIEND_MESSAGES.requestFailed);
    expect(again.json).toMatchObject({ reason: "too-soon", detail: expect.stringMatching(/declined your last request\. You can send another from /) });
    // The one rejected may still ask the other.
    const reverse = await bob.api.post("/api/friends/request", { receiverId: ann.id });
    expect(reverse.status).toBe(201);
    expectError(await ann.api.delete(`/api/friends/requests/${reverse.json.id}`), 404, FRIEND_MESSAGES.cancelFailed);
    expect((await bob.api.delete(`/api/friends/requests/${reverse.json.id}`)).status).toBe(200);
    expect(await ann.api.get("/api/friends/requests").then((r) => r.json)).toEqual([]);
    expectError(await ann.api.post(`/api/friends/requests/${reverse.json.id}/respond`, { response: "accepted" }), 404, FRIEND_MESSAGES.respondFailed);
  });

  it("finds nobody who opted out, with the same answer as an unknown address", async () => {
    const ann = await member();
    const hidden = await member();
    expect((await hidden.api.put("/api/auth/profile", { firstName: "Hid", lastName: "Den" })).status).toBe(200);
    // Opting out is the Privacy tab's form (there is no /api call for it).
    const privacy = await hidden.api.request("POST", "/account/privacy", {
      body: new URLSearchParams({ defaultVisibility: "public" }).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(privacy.status).toBeLessThan(400);
    const optedOut = await ann.api.get(`/api/friends/search?email=${hidden.email}`);
    const unknown = await ann.api.get(`/api/friends/search?email=nobody-${Date.now()}@example.test`);
    expect(optedOut.status).toBe(200);
    expect(optedOut.json).toEqual([]);
    expect({ status: unknown.status, body: unknown.text }).toEqual({ status: optedOut.status, body: optedOut.text });
    // Nor can they be asked by id: the same 404 as an id nobody has.
    const byId = await ann.api.post("/api/friends/request", { receiverId: hidden.id });
    const nobody = await ann.api.post("/api/friends/request", { receiverId: "00000000-0000-4000-8000-000000000000" });
    expectError(byId, 404, FRIEND_MESSAGES.requestFailed);
    expect(byId.json).toEqual(nobody.json);
  });

  it("answers every friends error with the words members are shown", async () => {
    const visitor = client(server.url);
    expectError(await visitor.get("/api/friends/search?email=a@example.test"), 401, FRIEND_MESSAGES.searchSignIn);
    expectError(await visitor.post("/api/friends/request", { receiverId: "x" }), 401, FRIEND_MESSAGES.requestSignIn);
    for (const [method, path] of [
      ["GET", "/api/friends"],
      ["GET", "/api/friends/requests"],
      ["POST", "/api/friends/requests/x/respond"],
      ["DELETE", "/api/friends/x"],
      ["DELETE", "/api/friends/requests/x"],
    ]) {
      expect((await visitor.request(method, path, method === "POST" ? { json: { response: "accepted" } } : {})).status, path).toBe(401);
    }

    const ann = await member();
    expectError(await ann.api.get("/api/friends/search?email="), 400, FRIEND_MESSAGES.emailRequired);
    expectError(await ann.api.get("/api/friends/search"), 400, FRIEND_MESSAGES.emailRequired);
    expectError(await ann.api.get("/api/friends/search?email=not-an-address"), 400, FRIEND_MESSAGES.email);
    expect((await ann.api.get(`/api/friends/search?email=${ann.email}`)).json).toEqual([]);
    expectError(await ann.api.post("/api/friends/request", {}), 400, "receiverId is required");
    const self = await ann.api.post("/api/friends/request", { receiverId: ann.id });
    expectError(self, 400, FRIEND_MESSAGES.requestFailed);
    expect(self.json.detail).toBe("You cannot send a friend request to yourself.");
    const bob = await member();
    await ann.api.post("/api/friends/request", { receiverId: bob.id });
    const twice = await ann.api.post("/api/friends/request", { receiverId: bob.id });
    expectError(twice, 409, FRIEND_MESSAGES.requestFailed);
    expect(twice.json.reason).toBe("already-sent");
    expect((await bob.api.post("/api/friends/request", { receiverId: ann.id })).json.reason).toBe("already-received");
    expectError(await ann.api.post("/api/friends/requests/nope/respond", { response: "maybe" }), 400, "response must be accepted or rejected");
    expectError(await ann.api.post("/api/friends/requests/nope/respond", { response: "accepted" }), 404, FRIEND_MESSAGES.respondFailed);
    expectError(await ann.api.delete("/api/friends/nope"), 404, FRIEND_MESSAGES.removeFailed);
    expectError(await ann.api.get("/api/friends?page=0"), 400, "There is no such page. Page numbers are whole numbers from 1.");
    expectError(await ann.api.get("/api/friends/requests?direction=sideways"), 400, "direction must be received or sent");
  });
});
