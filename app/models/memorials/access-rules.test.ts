import { describe, expect, it } from "vitest";
import {
  calendarFeedAccess,
  calendarLinksShown,
  canChangeVisibility,
  canDeleteOrExport,
  canEditContent,
  canManagePeople,
  canModerateAs,
  decideAccess,
  roleOf,
  type MemorialRole,
  type Viewer,
} from "./access-rules";

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

// The viewing rules, every cell.
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

// Co-managers: a manager or an editor sees the memorial in every state; the role
// functions say who may do what, for every role.

describe("co-manager roles", () => {
  const coManager = { id: "helper", isAdmin: false };
  for (const role of ["editor", "manager"] as const) {
    for (const [state, memorial] of Object.entries(states)) {
      it(`${role} × ${state} → allowed`, () => {
        expect(decideAccess(memorial, coManager, false, role)).toEqual({ allowed: true });
      });
    }
  }
  it("a co-manager row counts only for a signed-in viewer, and the owner stays the owner", () => {
    expect(roleOf(states.draft, null, "manager")).toBe("none");
    expect(roleOf(states.draft, owner, "editor")).toBe("owner");
    expect(roleOf(states.draft, other, "editor")).toBe("editor");
    expect(roleOf(states.draft, other, "boss")).toBe("none");
    expect(decideAccess(states.draft, other, false, null)).toEqual({ allowed: false, reason: "draft" });
  });

  const matrix: Record<MemorialRole, [edit: boolean, moderate: boolean, visibility: boolean, people: boolean, deleteOrExport: boolean]> = {
    owner: [true, true, true, true, true],
    manager: [true, true, true, true, false],
    editor: [true, true, false, false, false],
    none: [false, false, false, false, false],
  };
  for (const [role, want] of Object.entries(matrix) as [MemorialRole, boolean[]][]) {
    it(`${role}: edit ${want[0]}, moderate ${want[1]}, visibility ${want[2]}, people ${want[3]}, delete/export ${want[4]}`, () => {
      expect([canEditContent(role), canModerateAs(role), canChangeVisibility(role), canManagePeople(role), canDeleteOrExport(role)]).toEqual(want);
    });
  }
});

describe("anniversary calendars (decision 022)", () => {
  const published = (visibility: string) => ({ isPublished: true, visibility });

  it("gives a published public memorial's feed to anyone, a friends-only or private one's only with the key, a draft's to nobody", () => {
    expect(calendarFeedAccess(published("public"), false)).toBe("public");
    expect(calendarFeedAccess(published("friends"), false)).toBeNull();
    expect(calendarFeedAccess(published("private"), false)).toBeNull();
    expect(calendarFeedAccess(published("friends"), true)).toBe("private-link");
    expect(calendarFeedAccess(published("private"), true)).toBe("private-link");
    expect(calendarFeedAccess({ isPublished: false, visibility: "public" }, true)).toBeNull();
  });

  it("shows the private link to the owner and co-managers only, the public links to everyone", () => {
    for (const role of ["owner", "manager", "editor"] as const) expect(calendarLinksShown(published("private"), role)).toBe("private-link");
    expect(calendarLinksShown(published("private"), "none")).toBeNull();
    expect(calendarLinksShown(published("friends"), "none")).toBeNull();
    expect(calendarLinksShown(published("public"), "none")).toBe("public");
    expect(calendarLinksShown({ isPublished: false, visibility: "private" }, "owner")).toBeNull();
  });
});
