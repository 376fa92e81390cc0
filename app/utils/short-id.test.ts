import { describe, expect, it } from "vitest";
import { isQrFormat, parseShortId, permanentPath, SHORT_ID_ALPHABET, SHORT_ID_LENGTH } from "./short-id";

// The permanent address's short id as read from an address. The database makes them
// (app/models/memorials/short-id.server.test.ts holds what it makes to this alphabet).

describe("short ids", () => {
  it("use 31 characters that cannot be misread: no 0, 1, i, l or o, and each once", () => {
    expect(SHORT_ID_ALPHABET).toHaveLength(31);
    expect(new Set(SHORT_ID_ALPHABET).size).toBe(31);
    for (const misread of "01ilo") expect(SHORT_ID_ALPHABET).not.toContain(misread);
    expect(SHORT_ID_LENGTH).toBe(8);
  });

  it("are read in either case, and nothing else is guessed at", () => {
    expect(parseShortId("7kq3xr9p")).toBe("7kq3xr9p");
    expect(parseShortId("7KQ3XR9P")).toBe("7kq3xr9p");
    for (const bad of ["7kq3xr9", "7kq3xr9pp", "7kq3xr90", "7kq3xr9l", "7kq3xr9o", "7kq3xr91", "7kq3xr9i", "7kq3 r9p", "7kq3-r9p", "", null, undefined])
      expect(parseShortId(bad), String(bad)).toBeNull();
    // A UUID (the address of the page itself) is not a short id.
    expect(parseShortId("0b7c9d0e-5f1a-4c3b-9a8e-2d6f4b1c7a90")).toBeNull();
  });

  it("make the permanent path, and the QR downloads are the three formats", () => {
    expect(permanentPath("7kq3xr9p")).toBe("/m/7kq3xr9p");
    expect(["svg", "png", "pdf"].every(isQrFormat)).toBe(true);
    expect(isQrFormat("gif")).toBe(false);
    expect(isQrFormat(undefined)).toBe(false);
  });
});
