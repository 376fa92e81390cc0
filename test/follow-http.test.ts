import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "~/services/password.server";
import { addDays, reminderDayAt } from "~/utils/anniversaries";
import { client, registerMember, serverDatabases, startServer, type Client, type TestServer } from "./http";
import { mailsTo } from "./invitations";
import { formPost } from "./shop";

// Following a memorial over real HTTP, on both databases: a member follows and
// unfollows with plain form posts; a visitor follows with an email address and confirms with the link
// from the outbox; a follower's digest carries RFC 8058 headers, and its link asks on GET and
// unsubscribes on a one-click POST; a memorial one cannot see is 404; a bad address is 400 with the
// field's error and what was typed. Anniversary reminders: the server's start-up run sends
// a week-before reminder; its "stop the reminders only" link asks on GET and keeps the follow on POST; a
// member turns reminders on and off in Account → Following.

const plain = (html: string) => html.replace(/<!-- -->/g, "").replace(/&#x27;/g, "'");

const DIGEST_OWNER = "digest-owner@example.test";
const DIGEST_FOLLOWER = "digest-follower@example.test";
const REMINDED_FOLLOWER = "reminded-follower@example.test";

describe.each(serverDatabases())("following a memorial over HTTP on %s", (database) => {
  let server: TestServer;
  let owner: Client;
  let member: Client;
  let memberName: string;
  let visitor: Client;
  let publicId: string;
  let privateId: string;
  let digestMemorialId: string;
  let remindedMemorialId: string;

  beforeAll(async () => {
    server = await startServer(
      {},
      {
        database,
        // A memorial with a confirmed follower and a digest due now (the worker sends it at once).
        async prepare(db) {
          const user = await db.prisma.user.create({
            data: { email: DIGEST_OWNER, firstName: "Dora", lastName: "Digest", password: await hashPassword("Correct1horse") },
          });
          const m = await db.prisma.memorial.create({
            data: { userId: user.id, title: "Rowan Ash", firstName: "Rowan", lastName: "Ash", visibility: "public", isPublished: true },
          });
          digestMemorialId = m.id;
          const follow = await db.prisma.memorialFollow.create({
            data: { memorialId: m.id, email: DIGEST_FOLLOWER, confirmedAt: new Date(Date.now() - 3600_000) },
          });
          await db.prisma.tribute.create({
            data: { memorialId: m.id, authorName: "Ivy", content: "He planted the oak by the school.", isApproved: true, approvedAt: new Date() },
          });
          await db.prisma.mailOutbox.create({
            data: {
              to: DIGEST_FOLLOWER,
              kind: "follow-digest",
              data: { followId: follow.id },
              groupKey: `follow-digest:${follow.id}`,
              nextAttemptAt: new Date(),
            },
          });
          // A birthday a week from today, and a visitor who follows with reminders: the start-up run queues it.
          const day = addDays(reminderDayAt(new Date()), 7);
          const reminded = await db.prisma.memorial.create({
            data: {
              userId: user.id,
              title: "Willow Fern",
              firstName: "Willow",
              lastName: "Fern",
              visibility: "public",
              isPublished: true,
              dateOfBirth: new Date(`${Number(day.slice(0, 4)) - 80}${day.slice(4)}T00:00:00Z`),
            },
          });
          remindedMemorialId = reminded.id;
          await db.prisma.memorialFollow.create({
            data: { memorialId: reminded.id, email: REMINDED_FOLLOWER, anniversaryReminders: true, confirmedAt: new Date(Date.now() - 3600_000) },
          });
        },
      },
    );
    owner = (await registerMember(server.url, { firstName: "Olive", lastName: "Owner" })).api;
    const m = await registerMember(server.url, { firstName: "Milo", lastName: "Member" });
    member = m.api;
    memberName = "Milo Member";
    visitor = client(server.url);
    const pub = await owner.post("/api/memorials", { firstName: "Hazel", lastName: "Open", visibility: "public", isPublished: true });
    expect(pub.status, pub.text).toBe(201);
    publicId = pub.json.id;
    const priv = await owner.post("/api/memorials", { firstName: "Hidden", lastName: "Shut", visibility: "private", isPublished: true });
    expect(priv.status, priv.text).toBe(201);
    privateId = priv.json.id;
  }, 120_000);
  afterAll(async () => server?.stop());

  it("lets a member follow and unfollow with plain forms, listed in Account → Following; the family sees a count and agreed names", async () => {
    const page = await member.get(`/memorials/${publicId}`);
    expect(plain(page.text)).toContain("Follow the memorial of Hazel Open");
    const followed = await formPost(member, `/memorials/${publicId}/follow`, { intent: "follow", showName: "on", reminders: "on" });
    expect(followed.status).toBe(303);
    expect(followed.headers.get("Location")).toBe(`/memorials/${publicId}`);
    const after = plain((await member.get(`/memorials/${publicId}`)).text);
    expect(after).toContain("Following");
    expect(after).toContain("Unfollow");
    const settings = plain((await member.get("/account/following")).text);
    expect(settings).toContain("Hazel Open");
    expect(settings).toContain("anniversary reminders on");
    const people = plain((await owner.get(`/memorials/${publicId}/managers`)).text);
    expect(people).toContain("1 person follows this memorial");
    expect(people).toContain(memberName);

    const unfollowed = await formPost(member, `/memorials/${publicId}/follow`, { intent: "unfollow" });
    expect(unfollowed.status).toBe(303);
    expect(plain((await member.get("/account/following")).text)).toContain("You do not follow any memorials yet.");
    expect(plain((await owner.get(`/memorials/${publicId}/managers`)).text)).toContain("Nobody follows this memorial yet.");

    // Again, and unfollowed from Account → Following this time.
    expect((await formPost(member, `/memorials/${publicId}/follow`, { intent: "follow" })).status).toBe(303);
    const list = (await member.get("/account/following")).text;
    const followId = /name="followId" value="([^"]+)"/.exec(list)?.[1];
    expect(followId).toBeTruthy();
    expect((await formPost(member, "/account/following", { followId: followId! })).status).toBe(303);
    expect(plain((await member.get("/account/following")).text)).toContain("You do not follow any memorials yet.");
  });

  it("answers 404 for a memorial one cannot see, to a member and to a visitor", async () => {
    expect((await formPost(member, `/memorials/${privateId}/follow`, { intent: "follow" })).status).toBe(404);
    expect((await formPost(visitor, `/memorials/${privateId}/follow`, { email: "someone@example.test" })).status).toBe(404);
    expect((await formPost(member, `/memorials/not-a-memorial/follow`, { intent: "follow" })).status).toBe(404);
  });

  it("keeps a bad address with its error, and confirms a visitor's follow with the emailed link, once", async () => {
    const bad = await formPost(visitor, `/memorials/${publicId}/follow`, { email: "not-an-email", reminders: "on" });
    expect(bad.status).toBe(400);
    expect(plain(bad.text)).toContain("Enter an email address like name@example.com");
    expect(bad.text).toContain('value="not-an-email"');

    const address = `fan-${database}@example.test`;
    const asked = await formPost(visitor, `/memorials/${publicId}/follow`, { email: address });
    expect(asked.status).toBe(303);
    expect(asked.headers.get("Location")).toBe(`/memorials/${publicId}`);
    const [mail] = await mailsTo(server.dataDir, address, "Confirm that you want to follow the memorial of Hazel Open");
    expect(mail).toBeTruthy();
    const link = /\/follow\/([A-Za-z0-9_%-]+)/.exec(mail)?.[0];
    expect(link).toBeTruthy();
    // Not counted before the link is used.
    expect(plain((await owner.get(`/memorials/${publicId}/managers`)).text)).toContain("Nobody follows this memorial yet.");
    const ask = await visitor.get(link!);
    expect(ask.status).toBe(200);
    expect(plain(ask.text)).toContain("Follow the memorial of Hazel Open?");
    const done = await formPost(visitor, link!, {});
    expect(done.status).toBe(200);
    expect(plain(done.text)).toContain("You follow this memorial now.");
    const again = await formPost(visitor, link!, {});
    expect(plain(again.text)).toContain("This link was already used");
    expect(plain((await owner.get(`/memorials/${publicId}/managers`)).text)).toContain("1 person follows this memorial");
    expect((await visitor.get(`/follow/${"x".repeat(43)}`)).status).toBe(404);
  });

  it("sends a digest with one-click unsubscribe: GET asks, a List-Unsubscribe=One-Click POST unsubscribes", async () => {
    const [mail] = await mailsTo(server.dataDir, DIGEST_FOLLOWER, "1 new tribute on the memorial of Rowan Ash");
    expect(mail).toBeTruthy();
    expect(mail).toContain("He planted the oak by the school.");
    expect(mail).toMatch(/List-Unsubscribe-Post: List-Unsubscribe=One-Click/);
    const unfolded = mail.replace(/\r?\n[ \t]+/g, " ");
    expect(unfolded).toMatch(/List-Unsubscribe: <https?:\/\/[^>]+\/unsubscribe\?follow=[^>]+>/);
    const link = /\/unsubscribe\?follow=([A-Za-z0-9-]+)&(?:amp;)?sig=([A-Za-z0-9_-]+)/.exec(unfolded);
    expect(link).toBeTruthy();
    const path = `/unsubscribe?follow=${link![1]}&sig=${link![2]}`;

    const familyBefore = client(server.url);
    expect((await familyBefore.post("/api/auth/login", { email: DIGEST_OWNER, password: "Correct1horse" })).status).toBe(200);
    expect(plain((await familyBefore.get(`/memorials/${digestMemorialId}/managers`)).text)).toContain("1 person follows this memorial");

    const asks = await visitor.get(path);
    expect(asks.status).toBe(200);
    expect(plain(asks.text)).toContain("Stop following this memorial");
    // Opening it changed nothing.
    expect(plain((await familyBefore.get(`/memorials/${digestMemorialId}/managers`)).text)).toContain("1 person follows this memorial");

    const oneClick = await visitor.request("POST", path, {
      body: "List-Unsubscribe=One-Click",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(oneClick.status).toBe(200);
    expect(plain(oneClick.text)).toContain("You no longer follow this memorial");
    expect(plain((await familyBefore.get(`/memorials/${digestMemorialId}/managers`)).text)).toContain("Nobody follows this memorial yet.");
    // A link with its signature changed does nothing.
    const forged = path.replace(/sig=[^&]+/, "sig=forged");
    expect((await visitor.get(forged)).status).toBe(400);
  });

  it("sends a week-before reminder at start; its stop-reminders link asks, then stops the reminders and keeps the follow", async () => {
    const [mail] = await mailsTo(server.dataDir, REMINDED_FOLLOWER, "Remembering Willow Fern: their birthday is next week");
    expect(mail).toBeTruthy();
    expect(mail).toContain("It would have been their 80th.");
    expect(mail).toMatch(/List-Unsubscribe-Post: List-Unsubscribe=One-Click/);
    expect(mail).toContain(`/memorials/${remindedMemorialId}#leave-tribute`);
    const link = /\/unsubscribe\?follow=(?:3D)?([A-Za-z0-9-]+)&(?:amp;)?only=(?:3D)?reminders&(?:amp;)?sig=(?:3D)?([A-Za-z0-9_-]+)/.exec(mail);
    expect(link).toBeTruthy();
    const path = `/unsubscribe?follow=${link![1]}&only=reminders&sig=${link![2]}`;
    const asks = await visitor.get(path);
    expect(asks.status).toBe(200);
    expect(plain(asks.text)).toContain("Stop the anniversary reminders of this memorial. You will still follow it");
    const done = await formPost(visitor, path, {});
    expect(done.status).toBe(200);
    expect(plain(done.text)).toContain("We will not send you anniversary reminders for this memorial any more. You still follow it.");
    const family = client(server.url);
    expect((await family.post("/api/auth/login", { email: DIGEST_OWNER, password: "Correct1horse" })).status).toBe(200);
    expect(plain((await family.get(`/memorials/${remindedMemorialId}/managers`)).text)).toContain("1 person follows this memorial");
    // Signed for the reminders only: the same signature does not end the follow, and a forged one does nothing.
    expect((await visitor.get(`/unsubscribe?follow=${link![1]}&sig=${link![2]}`)).status).toBe(400);
    expect((await visitor.get(path.replace(/sig=[^&]+$/, "sig=forged"))).status).toBe(400);
  });

  it("turns a member's reminders on and off in Account → Following, without JavaScript", async () => {
    expect((await formPost(member, `/memorials/${publicId}/follow`, { intent: "follow" })).status).toBe(303);
    const list = (await member.get("/account/following")).text;
    expect(plain(list)).not.toContain("anniversary reminders on");
    const followId = /name="followId" value="([^"]+)"/.exec(list)?.[1];
    expect(followId).toBeTruthy();
    const on = await formPost(member, "/account/following", { followId: followId!, intent: "reminders-on" });
    expect(on.status).toBe(303);
    const after = plain((await member.get("/account/following")).text);
    expect(after).toContain("anniversary reminders on");
    expect(after).toContain("Turn reminders off");
    expect((await formPost(member, "/account/following", { followId: followId!, intent: "reminders-off" })).status).toBe(303);
    expect(plain((await member.get("/account/following")).text)).not.toContain("anniversary reminders on");
    // Someone else's follow cannot be changed.
    const other = (await registerMember(server.url, { firstName: "Nosy", lastName: "Parker" })).api;
    expect((await formPost(other, "/account/following", { followId: followId!, intent: "reminders-on" })).status).toBe(303);
    expect(plain((await member.get("/account/following")).text)).not.toContain("anniversary reminders on");
    expect((await formPost(member, "/account/following", { followId: followId!, intent: "unfollow" })).status).toBe(303);
  });
});
