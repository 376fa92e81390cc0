import { describe, expect, it } from "vitest";
import { decideAccess, type Viewer } from "./memorial-access";

const owner = { id: "owner", isAdmin: false };
const friend = { id: "friend", isAdmin: false };
const other = { id: "other", isAdmin: false };
const admin = { id: "admin", isAdmin: true };

const states = {
  draft: { userId: "owner", isPublished: false, visibility: "public" },
  public: { userId: "owner", isPublished: true, visibility: "public" },
  friends: { userId: "owner", isPublished: true, visibility: "friends" },
  private: { userId: "owner", isPublished: true, visibility: "private" },
};

// memorial-core.md §4 viewing rules, every cell.
const expected: Record<string, Record<keyof typeof states, boolean | string>> = {
  owner: { draft: true, public: true, friends: true, private: true },
  friend: { draft: "draft", public: true, friends: true, private: "private" },
  other: { draft: "draft", public: true, friends: "friends", private: "private" },
  visitor: { draft: "draft", public: true, friends: "friends", private: "private" },
  admin: { draft: true, public: true, friends: true, private: true },
};
const viewers: Record<string, [Viewer, boolean]> = {
  owner: [owner, false],
  friend: [friend, true],
  other: [other, false],
  visitor: [null, false],
  admin: [admin, false],
};

describe("decideAccess", () => {
  for (const [who, [viewer, isFriend]] of Object.entries(viewers)) {
    for (const [state, memorial] of Object.entries(states) as [keyof typeof states, (typeof states)[keyof typeof states]][]) {
      const want = expected[who][state];
      it(`${who} × ${state} → ${want === true ? "allowed" : `locked (${want})`}`, () => {
        const decision = decideAccess(memorial, viewer, isFriend);
        expect(decision).toEqual(want === true ? { allowed: true } : { allowed: false, reason: want });
      });
    }
  }
});
