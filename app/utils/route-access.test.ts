import { describe, expect, it } from "vitest";
import { requiresAdmin, requiresLogin } from "./route-access";

describe("route access table", () => {
  it.each([
    ["/my-memorials", true],
    ["/memorials/create", true],
    ["/memorials/abc/edit", true],
    ["/memorials/abc", false],
    ["/memorials", false],
    ["/account/security", true],
    ["/basket/", true],
    ["/admin", true],
    ["/news", false],
    ["/", false],
    ["/accounts", false],
  ])("%s requires login: %s", (path, expected) => {
    expect(requiresLogin(path)).toBe(expected);
  });

  it("only /admin needs an administrator", () => {
    expect(requiresAdmin("/admin")).toBe(true);
    expect(requiresAdmin("/admin/users")).toBe(true);
    expect(requiresAdmin("/account")).toBe(false);
  });
});
