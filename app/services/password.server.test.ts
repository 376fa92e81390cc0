import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.server";
import { hashPassword, verifyPassword } from "./password.server";

// Passwords are hashed slowly (scrypt at OWASP's N=2^17 unless PASSWORD_HASH_COST says otherwise, as
// the tests' servers do for speed), and every hash keeps its own parameters, so hashes made at another
// cost still verify.

describe("password hashing", () => {
  it("uses OWASP's cost unless told otherwise, and refuses a cost outside 12–20", () => {
    expect(parseEnv({}).PASSWORD_HASH_COST).toBe(17);
    expect(() => parseEnv({ PASSWORD_HASH_COST: "4" })).toThrow(/PASSWORD_HASH_COST must be between 12 and 20/);
    expect(() => parseEnv({ PASSWORD_HASH_COST: "30" })).toThrow(/PASSWORD_HASH_COST must be between 12 and 20/);
  });

  it("stores its parameters with each hash, verifies the right password only, and a hash of another cost still verifies", async () => {
    const hash = await hashPassword("Correct1horse");
    expect(hash).toMatch(new RegExp(`^scrypt\\$${2 ** Number(process.env.PASSWORD_HASH_COST ?? 17)}\\$8\\$1\\$`));
    expect(await verifyPassword("Correct1horse", hash)).toBe(true);
    expect(await verifyPassword("correct1horse", hash)).toBe(false);
    // A hash made at OWASP's cost (as a deployment stores it) verifies whatever the current setting.
    const owasp =
      "scrypt$131072$8$1$" +
      Buffer.from("0123456789abcdef").toString("base64") +
      "$" +
      (await import("node:crypto"))
        .scryptSync("Correct1horse", Buffer.from("0123456789abcdef"), 64, { N: 2 ** 17, r: 8, p: 1, maxmem: 2 ** 28 })
        .toString("base64");
    expect(await verifyPassword("Correct1horse", owasp)).toBe(true);
    expect(await verifyPassword("Wrong1horse", "not a hash")).toBe(false);
  });
});
