import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { z } from "~/utils/validation/zod";
import { parseForm } from "./form.server";

const schema = z.object({ email: z.email({ error: "Enter a valid email" }) });

function posted(fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

describe("parseForm", () => {
  it("reads a form as Conform does: the value when it is valid, the field's message and what was typed when not", () => {
    const ok = parseForm(posted({ email: "ann@example.com" }), { schema });
    expect(ok.status).toBe("success");
    expect(ok.status === "success" && ok.value).toEqual({ email: "ann@example.com" });
    const bad = parseForm(posted({ email: "not an address" }), { schema });
    expect(bad.status).toBe("error");
    expect(bad.reply().error).toEqual({ email: ["Enter a valid email"] });
    expect(bad.reply().initialValue).toEqual({ email: "not an address" });
  });

  it("ignores forged __intent__ and __state__ fields, which make Conform itself throw", () => {
    const forged = { email: "ann@example.com", __intent__: "not json", __state__: "{" };
    expect(() => parseWithZod(posted(forged), { schema })).toThrow();
    const read = parseForm(posted(forged), { schema });
    expect(read.status).toBe("success");
    expect(read.status === "success" && read.value).toEqual({ email: "ann@example.com" });
    const validLooking = parseForm(posted({ email: "x", __intent__: JSON.stringify({ type: "validate", payload: { name: "email" } }) }), { schema });
    expect(validLooking.status).toBe("error");
    const query = parseForm(new URLSearchParams({ email: "ann@example.com", __intent__: "[" }), { schema });
    expect(query.status).toBe("success");
  });
});
