import { describe, expect, it } from "vitest";
import { isBuilt } from "./screens";

describe("screens that exist", () => {
  it.each([
    ["/", true],
    ["/memorials", true],
    ["/memorials/create", true],
    ["/help#plans", true],
    ["/my-memorials?page=2", true],
    ["/news", true],
    ["/friends/find?email=a%40b.test", true],
    ["/vault/files", true],
    ["/subscription?success=true", true],
    ["/order-success", true],
    ["/basket", true],
    ["/admin", true],
    ["/admin/orders?status=pending", true],
    ["/newsletter-archive", true],
  ])("%s is built: %s", (href, expected) => {
    expect(isBuilt(href)).toBe(expected);
  });
});
