import { describe, expect, it } from "vitest";
import { changePasswordSchema, loginSchema, MESSAGES, PASSWORD_RULES, registerSchema, safeRedirect } from "./account";

const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]));

describe("register rules", () => {
  const valid = { firstName: "Ann", lastName: "Lee", email: "Ann@Example.COM ", password: "Secret123", confirmPassword: "Secret123" };
  it("accepts a valid registration and lower-cases the email", () => {
    const result = registerSchema.safeParse(valid);
    expect(result.success && result.data.email).toBe("ann@example.com");
  });
  it.each([
    [{ firstName: "A" }, "firstName", MESSAGES.firstNameMin],
    [{ lastName: "L" }, "lastName", MESSAGES.lastNameMin],
    [{ email: "not-an-email" }, "email", MESSAGES.email],
    [{ password: "Sh0rt", confirmPassword: "Sh0rt" }, "password", MESSAGES.passwordMin],
    [{ password: "lowercase1", confirmPassword: "lowercase1" }, "password", MESSAGES.passwordUpper],
    [{ password: "NoNumbersHere", confirmPassword: "NoNumbersHere" }, "password", MESSAGES.passwordNumber],
    [{ confirmPassword: "Different1" }, "confirmPassword", MESSAGES.passwordsMatch],
    [{ confirmPassword: "" }, "confirmPassword", MESSAGES.confirmPasswordRequired],
  ])("%o → %s: %s", (change, field, message) => {
    expect(messages(registerSchema.safeParse({ ...valid, ...change }))[field]).toBe(message);
  });

  // Each problem is told once, and "don't match" only when there is something to compare.
  const issuesOf = (input: Record<string, unknown>) => registerSchema.safeParse(input).error?.issues.map((i) => `${String(i.path[0])}: ${i.message}`) ?? [];
  it("tells a name of spaces once", () => {
    expect(issuesOf({ ...valid, firstName: "   " })).toEqual([`firstName: ${MESSAGES.firstNameMin}`]);
  });
  it("asks for the confirmation under two empty password fields, and says nothing of matching", () => {
    expect(issuesOf({ ...valid, password: undefined, confirmPassword: undefined })).toEqual([
      `password: ${MESSAGES.passwordMin}`,
      `confirmPassword: ${MESSAGES.confirmPasswordRequired}`,
    ]);
  });
});

describe("login rules", () => {
  it("needs a valid email and a password of at least 6 characters", () => {
    const m = messages(loginSchema.safeParse({ email: "x", password: "12345" }));
    expect(m).toEqual({ email: MESSAGES.email, password: MESSAGES.loginPassword });
  });
});

describe("password change rules", () => {
  it("needs the current password and a matching confirmation", () => {
    const m = messages(changePasswordSchema.safeParse({ currentPassword: "", newPassword: "NewSecret1", confirmPassword: "NewSecret2" }));
    expect(m).toEqual({ currentPassword: MESSAGES.currentPasswordRequired, confirmPassword: MESSAGES.passwordsMatch });
  });
});

describe("safeRedirect", () => {
  it.each([
    ["/my-memorials?x=1", "/my-memorials?x=1"],
    ["/memorials?search=a%2Fb#tributes", "/memorials?search=a%2Fb#tributes"],
    ["/memorials/1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed/edit", "/memorials/1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed/edit"],
    ["//evil.example", "/"],
    ["/\\evil.example", "/"],
    ["\\\\evil.example", "/"],
    ["/\tevil.example", "/"],
    ["/\t/evil.example", "/"],
    ["/%09/evil.example", "/"],
    ["/%2F/evil.example", "/"],
    ["/%2f%2fevil.example", "/"],
    ["/%5C/evil.example", "/"],
    ["/%5c%5cevil.example", "/"],
    ["/\n/evil.example", "/"],
    ["/\r\n/evil.example", "/"],
    ["/\u0000/evil.example", "/"],
    ["/\u007f/evil.example", "/"],
    ["/\u0085/evil.example", "/"],
    ["/%00", "/"],
    ["/\u3002/evil.example", "/"],
    ["/caf\u00e9", "/"],
    ["/a b", "/"],
    ["/caf%C3%A9?q=%E3%80%82", "/caf%C3%A9?q=%E3%80%82"],
    [" /evil", "/"],
    ["\t//evil.example", "/"],
    ["https://evil.example", "/"],
    ["javascript:alert(1)", "/"],
    ["/javascript:alert(1)", "/javascript:alert(1)"],
    ["evil.example", "/"],
    ["", "/"],
    [null, "/"],
    [undefined, "/"],
  ])("%j → %s", (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });
});

describe("the password checklist the browser shows and the server's password rules", () => {
  // The checklist under new-password fields (PASSWORD_RULES, shown with or without JavaScript) and the
  // zod rules the server applies must agree on every password: a member must never tick every box and
  // still be refused, or be accepted with a box unticked.
  it.each(["", "short1A", "alllowercase1", "NoNumbersHere", "Correct1horse", "12345678", "ABCDEFGH1", "Ünïcode9Á", " spaced 1A "])(
    "agree on %j",
    (password) => {
      const unmet = PASSWORD_RULES.filter((rule) => !rule.test(password)).map((rule) => rule.message);
      const result = changePasswordSchema.safeParse({ currentPassword: "x", newPassword: password, confirmPassword: password });
      const refused = result.success ? [] : result.error.issues.filter((i) => i.path[0] === "newPassword").map((i) => i.message);
      expect(refused).toEqual(unmet);
    },
  );
});
