import { randomBytes } from "node:crypto";
import { crc32, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { fillGzip, fillTemplate, fillText, FIRST_LEVEL, KEPT_LEVEL, packPage, packTemplate, repack, repackTemplate } from "./packed-page";

// The kept page with per-request values spliced into its gzip body (server/packed-page.ts): what a
// browser unpacks must be exactly the page with the values put in, whatever the values and wherever
// the placeholders fall.

const N = "NONCE_8f3a";
const S = "STAMP_c71e";

const cases: [string, string, Record<string, string>][] = [
  [
    "placeholders in the middle",
    `<html><script nonce="${N}">go()</script><input value="${S}"><script nonce="${N}"></script></html>`,
    { [N]: "abc+/==", [S]: "1795440590187.pnrlD7QY" },
  ],
  ["placeholders at both ends and side by side", `${N}${S}middle${S}${N}`, { [N]: "n", [S]: "s" }],
  ["no placeholders at all", "<p>Nothing to fill in.</p>", {}],
  ["an empty value", `a${N}b`, { [N]: "" }],
  ["multi-byte text in a long page", `<p>Grüße, 祖母, 🌼 — ${"Ein langer Lebenslauf. ".repeat(5000)}</p><i>${N}</i>`, { [N]: "ünïcode✓" }],
  ["a value longer than one stored block", `<p>${S}</p>`, { [S]: "x".repeat(70_000) }],
];

describe("a packed page", () => {
  it.each(cases)("unpacks to the filled-in page: %s", (_name, html, values) => {
    const page = packPage(html, [N, S]);
    const expected = html.replaceAll(N, values[N] ?? "").replaceAll(S, values[S] ?? "");
    expect(fillText(page, values).toString()).toBe(expected);
    expect(gunzipSync(fillGzip(page, values)).toString()).toBe(expected);
  });

  it("gives each request its own values from the one packed copy, compressed", () => {
    const html = `<main>${"<p>She kept bees on the hill and taught the valley to swim.</p>".repeat(400)}<script nonce="${N}"></script></main>`;
    const page = packPage(html, [N, S]);
    const first = fillGzip(page, { [N]: "first" });
    const second = fillGzip(page, { [N]: "second" });
    expect(gunzipSync(first).toString()).toContain('nonce="first"');
    expect(gunzipSync(second).toString()).toContain('nonce="second"');
    expect(first.length).toBeLessThan(html.length / 10);
  });
});

describe("a page packed again (asked for a second time)", () => {
  it.each(cases)("unpacks to the same filled-in page: %s", (_name, html, values) => {
    const fast = packPage(html, [N, S]);
    const kept = repack(fast);
    expect([fast.level, kept.level]).toEqual([FIRST_LEVEL, KEPT_LEVEL]);
    const expected = html.replaceAll(N, values[N] ?? "").replaceAll(S, values[S] ?? "");
    expect(fillText(kept, values).toString()).toBe(expected);
    expect(gunzipSync(fillGzip(kept, values)).toString()).toBe(expected);
    expect(kept.gzip.length).toBeLessThanOrEqual(fast.gzip.length);
  });

  it("is smaller on a real-sized page", () => {
    const html = `<main>${Array.from({ length: 300 }, (_, i) => `<li><a href="/memorials/${i * 7919}">Memorial ${i}</a> — ${i % 3 ? "remembered" : "missed"} by ${i} people</li>`).join("")}<script nonce="${N}"></script></main>`;
    const fast = packPage(html, [N, S]);
    expect(repack(fast).gzip.length).toBeLessThan(fast.gzip.length * 0.97);
  });
});

describe("a packed page with values as long as their placeholders (the fast path)", () => {
  it("unpacks to the filled-in page, the CRC corrected without reading the page", () => {
    const n = "N".repeat(24);
    const s = "S".repeat(57);
    const html = `<html><script nonce="${n}">go()</script>${"<p>Grüße, 祖母 — a long life.</p>".repeat(3000)}<input value="${s}"><script nonce="${n}"></script>${s}</html>`;
    const page = packPage(html, [n, s]);
    for (let i = 0; i < 5; i++) {
      const values = { [n]: randomBytes(16).toString("base64"), [s]: `${Date.now() + i}.${randomBytes(32).toString("base64url")}` };
      const expected = html.replaceAll(n, values[n]).replaceAll(s, values[s]);
      expect(fillText(page, values).toString()).toBe(expected);
      const gzip = fillGzip(page, values);
      expect(gunzipSync(gzip).toString()).toBe(expected);
      expect(gzip.readUInt32LE(gzip.length - 8)).toBe(crc32(Buffer.from(expected)) >>> 0);
    }
  });
});

describe("a page template (a page with holes for what differs from page to page, server/search-template.ts)", () => {
  const A = "HOLE_A_1d9";
  const B = "HOLE_B_77c";
  const templates: [string, string, Record<string, string>][] = [
    [
      "holes and slots mixed",
      `<title>${A}</title><script nonce="${N}">go("${B}")</script><a href="?s=${B}">${A}</a><input value="${S}">${"<p>A long life.</p>".repeat(500)}`,
      { [A]: "Grüße &amp; 🌼", [B]: "Gr%C3%BC%C3%9Fe+%26" },
    ],
    ["holes at both ends and side by side, beside a slot", `${A}${B}${N}${A}middle${B}`, { [A]: "a", [B]: "" }],
    ["no holes", `<p>${N}</p>`, {}],
    ["a value longer than one stored block", `<p>${A}</p>${N}`, { [A]: "ü".repeat(40_000) }],
  ];

  it.each(templates)("is filled into a packed page that unpacks to the page with the values, its slots still to fill: %s", (_name, html, holes) => {
    const template = packTemplate(html, [N, S], [A, B]);
    const filled = html.replaceAll(A, holes[A] ?? "").replaceAll(B, holes[B] ?? "");
    for (const t of [template, repackTemplate(template)]) {
      const page = fillTemplate(t, holes);
      // The same as the page packed from the filled text: the same slots, the same answers per request.
      const direct = packPage(filled, [N, S]);
      expect(page.slots).toEqual(direct.slots);
      expect(page.text.equals(direct.text)).toBe(true);
      const request = { [N]: randomBytes(16).toString("base64"), [S]: `${Date.now()}.${randomBytes(32).toString("base64url")}` };
      const expected = filled.replaceAll(N, request[N]).replaceAll(S, request[S]);
      expect(gunzipSync(fillGzip(page, request)).toString()).toBe(expected);
      expect(fillText(page, request).toString()).toBe(expected);
      // Asked for again, a page made from a template is packed again like any other.
      expect(gunzipSync(fillGzip(repack(page), request)).toString()).toBe(expected);
    }
  });

  it("compresses its text once: two pages from it differ only in their values, written as they are", () => {
    const html = `<h1>${A}</h1>${"<p>She kept bees on the hill and taught the valley to swim.</p>".repeat(400)}<script nonce="${N}"></script>`;
    const template = packTemplate(html, [N, S], [A]);
    const one = fillGzip(fillTemplate(template, { [A]: "first words" }), { [N]: "n" });
    const two = fillGzip(fillTemplate(template, { [A]: "other words here" }), { [N]: "n" });
    expect(one.includes(Buffer.from("first words"))).toBe(true);
    expect(two.includes(Buffer.from("other words here"))).toBe(true);
    expect(two.length - one.length).toBe("other words here".length - "first words".length);
    expect(one.length).toBeLessThan(html.length / 10);
  });
});
