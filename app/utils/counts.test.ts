import { describe, expect, it } from "vitest";
import { countOf, nonZeroCounts } from "./counts";

describe("counts", () => {
  it("says one and many, with thousands", () => {
    expect(countOf(1, "photo")).toBe("1 photo");
    expect(countOf(1204, "view")).toBe("1,204 views");
    expect(countOf(2, "child", "children")).toBe("2 children");
  });
  it("leaves out what there is none of, and says nothing at all for nothing", () => {
    expect(
      nonZeroCounts([
        [2, "photo"],
        [0, "video"],
      ]),
    ).toBe("2 photos");
    expect(
      nonZeroCounts([
        [2, "photo"],
        [1, "video"],
      ]),
    ).toBe("2 photos, 1 video");
    expect(
      nonZeroCounts([
        [0, "photo"],
        [0, "video"],
      ]),
    ).toBe("");
  });
});
