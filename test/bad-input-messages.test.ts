import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGE_NUMBER_MESSAGE } from "~/utils/paging";
import { TEXT_MESSAGES } from "~/utils/validation/text-rules";
import { client, registerMember, startServer, type Client, type TestServer } from "./http";

// The messages: what used to crash the server (a NUL byte PostgreSQL cannot store, year
// 0000, an offset of 10^21 rows) or was silently changed (2023-02-29 became 1 March) is now refused
// with a 4xx and a sentence: next to the field on a form, `{ message, errors }` from the /api.

let server: TestServer;
let owner: Client;
let memorialId: string;

beforeAll(async () => {
  server = await startServer();
  owner = (await registerMember(server.url)).api;
  memorialId = (await owner.post("/api/memorials", { firstName: "Bad", lastName: "Input", visibility: "public", isPublished: true })).json.id;
});
afterAll(async () => {
  await server?.stop();
});

const escapeHtml = (text: string) => text.replace(/'/g, "&#x27;");

/** The memorial form as the browser sends it without JavaScript (multipart, every field). */
function memorialForm(fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries({ firstName: "Ann", lastName: "Lee", visibility: "public", category: "individual", intent: "publish", ...fields }))
    form.append(name, value);
  return form;
}

async function postForm(api: Client, path: string, form: FormData) {
  const request = new Request("http://x", { method: "POST", body: form });
  const body = new Uint8Array(await request.arrayBuffer());
  return api.request("POST", path, { body, headers: { "Content-Type": request.headers.get("Content-Type")! } });
}

describe("impossible and out-of-range dates", () => {
  it("refuses 2023-02-29 on the memorial form with a message next to the date, keeping what was typed", async () => {
    const res = await postForm(owner, "/memorials/create", memorialForm({ dateOfBirth: "2023-02-29", biography: "Kept as typed" }));
    expect(res.status).toBe(400);
    expect(res.text).toContain(TEXT_MESSAGES.dateImpossible);
    expect(res.text).toMatch(/aria-invalid="true"[^>]*name="dateOfBirth"|name="dateOfBirth"[^>]*aria-invalid="true"/);
    expect(res.text).toContain("Kept as typed");
  });

  it("refuses 2023-02-29 and year 0000 from the /api with the field named, and stores nothing", async () => {
    const before = (await owner.get("/api/memorials?userId=" + (await owner.get("/api/auth/user")).json.id)).json.length;
    const impossible = await owner.post("/api/memorials", { firstName: "Ann", lastName: "Lee", dateOfPassing: "2023-02-29" });
    expect(impossible.status).toBe(400);
    expect(impossible.json.errors.dateOfPassing).toEqual([TEXT_MESSAGES.dateImpossible]);
    const yearZero = await owner.post("/api/memorials", { firstName: "Ann", lastName: "Lee", dateOfBirth: "0000-01-01" });
    expect(yearZero.status).toBe(400);
    expect(yearZero.json.errors.dateOfBirth).toEqual([TEXT_MESSAGES.earliestYear]);
    const edit = await owner.put(`/api/memorials/${memorialId}`, { dateOfBirth: "1999-13-01" });
    expect(edit.status).toBe(400);
    expect((await owner.get("/api/memorials?userId=" + (await owner.get("/api/auth/user")).json.id)).json.length).toBe(before);
  });
});

describe("hidden control characters (a NUL byte cannot be stored)", () => {
  it("refuses a tribute with a NUL byte in its text, naming the field", async () => {
    const res = await client(server.url).post(`/api/memorials/${memorialId}/tributes`, { authorName: "Ann", content: "A memory \u0000 of her." });
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual({ content: [TEXT_MESSAGES.control] });
  });

  it("refuses a name with a NUL byte on the register form, next to the field, once", async () => {
    const body = new URLSearchParams({
      firstName: "An\u0000n",
      lastName: "Lee",
      email: "nul@example.test",
      password: "Correct1horse",
      confirmPassword: "Correct1horse",
    });
    const res = await client(server.url).request("POST", "/register", {
      body: body.toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(400);
    // Once, in the list of errors under the field (it is also in the page's data for its script).
    expect(res.text.split(`<li>${escapeHtml(TEXT_MESSAGES.control)}</li>`).length - 1).toBe(1);
  });

  it("refuses a biography with a NUL byte through the /api, and the memorial is unchanged", async () => {
    const res = await owner.put(`/api/memorials/${memorialId}`, { biography: "Born \u0000 by the sea." });
    expect(res.status).toBe(400);
    expect(res.json.errors.biography).toEqual([TEXT_MESSAGES.control]);
    expect((await owner.get(`/api/memorials/${memorialId}`)).json.biography).toBeNull();
  });

  it("refuses share data holding a NUL byte", async () => {
    const res = await client(server.url).post(`/api/memorials/${memorialId}/share`, { shareType: "copy_link", shareData: { note: "a\u0000b" } });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(TEXT_MESSAGES.control);
  });
});

describe("page numbers", () => {
  it("answers ?tributes=1e20 on the memorial page with 400 and a sentence, for a visitor and the owner", async () => {
    for (const api of [client(server.url), owner]) {
      const res = await api.get(`/memorials/${memorialId}?tributes=1e20`);
      expect(res.status).toBe(400);
      expect(res.text).toContain(PAGE_NUMBER_MESSAGE);
    }
    expect((await client(server.url).get(`/api/memorials/${memorialId}/tributes?page=-3`)).json.message).toBe(PAGE_NUMBER_MESSAGE);
  });

  it("shows the last page for a page number past it", async () => {
    const res = await client(server.url).get(`/memorials/${memorialId}?tributes=999`);
    expect(res.status).toBe(200);
  });
});
