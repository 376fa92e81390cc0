import jsQR from "jsqr";
import sharp, { type SharpOptions } from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/services/db.server";
import { hashPassword } from "~/services/password.server";
import { client, registerMember, serverDatabases, startServer, type Client, type TestServer } from "./http";
import { invitationLink } from "./invitations";
import { pdfInfo, pdfPageImages, pdfText } from "./pdf";
import { formPost } from "./shop";

// The permanent address and the headstone QR code over real HTTP against the built server, started with
// a PUBLIC_URL that is not its own address: /m/<shortId> sends anyone on to the memorial
// (301) in either case, and is the memorial page's 404 when it names nothing, is malformed, or names a
// deleted memorial; the owner and a co-manager download the code as SVG, PNG and an A4 PDF, each read back by
// a QR decoder to exactly PUBLIC_URL + /m/<shortId>, with the name, dates and address printed on the sheet;
// another member, an administrator who is no co-manager, and a visitor get 404.

const PUBLIC_URL = "https://stones.everlight.example";
const ADMIN = { email: "qr-admin@example.test", password: "Correct1horse" };
const plain = (html: string) => html.replace(/<!-- -->/g, "");

/** The text a QR decoder reads from an image (any format sharp reads), or null. */
async function decodeQr(image: Buffer | string, options: SharpOptions = {}): Promise<string | null> {
  const { data, info } = await sharp(typeof image === "string" ? Buffer.from(image) : image, options)
    .flatten({ background: "#ffffff" })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), info.width, info.height)?.data ?? null;
}

describe.each(serverDatabases())("permanent address and QR code over HTTP on %s", (database) => {
  let server: TestServer;
  let owner: Client;
  let other: Client;
  let admin: Client;
  let memorial: { id: string; shortId: string; permanentUrl: string };

  /** A GET with the client's session, read as bytes. */
  const download = async (who: Client | null, path: string) => {
    const res = await fetch(`${server.url}${path}`, {
      headers: who ? { Cookie: who.cookie, "X-Forwarded-For": who.ip } : {},
      redirect: "manual",
    });
    return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
  };
  const qr = (format: string, id = memorial.id) => `/memorials/${id}/qr/${format}`;

  beforeAll(async () => {
    // An administrator who is no co-manager: the code is the family's, an administrator gets 404 as anyone else.
    const prepare = async (db: Database) =>
      void (await db.prisma.user.create({
        data: { email: ADMIN.email, password: await hashPassword(ADMIN.password), firstName: "Ada", lastName: "Admin", isAdmin: true },
      }));
    server = await startServer({ PUBLIC_URL }, { database, prepare });
    admin = client(server.url);
    expect((await admin.post("/api/auth/login", ADMIN)).json.isAdmin).toBe(true);
    owner = (await registerMember(server.url, { firstName: "Olga", lastName: "Owner" })).api;
    other = (await registerMember(server.url)).api;
    const created = await owner.post("/api/memorials", {
      firstName: "Łucja",
      lastName: "Żółkiewska-Σοφία",
      dateOfBirth: "1931-04-12",
      dateOfPassing: "2024-02-29",
      visibility: "public",
      isPublished: true,
    });
    expect(created.status, created.text).toBe(201);
    memorial = created.json;
  }, 120_000);
  afterAll(async () => server?.stop());

  it("gives each memorial a short id and an absolute permanent address on PUBLIC_URL, in the /api's memorial", async () => {
    expect(memorial.shortId).toMatch(/^[23456789abcdefghjkmnpqrstuvwxyz]{8}$/);
    expect(memorial.permanentUrl).toBe(`${PUBLIC_URL}/m/${memorial.shortId}`);
    const read = await client(server.url).get(`/api/memorials/${memorial.id}`);
    expect(read.json).toMatchObject({ shortId: memorial.shortId, permanentUrl: memorial.permanentUrl });
    // The memorial page shows it in its share area, to anyone.
    expect(plain((await client(server.url).get(`/memorials/${memorial.id}`)).text)).toContain(`Permanent link: <a href="${memorial.permanentUrl}"`);
  });

  it("sends anyone from /m/<shortId> to the memorial page, in either case; nothing else there is a page", async () => {
    const visitor = client(server.url);
    for (const path of [`/m/${memorial.shortId}`, `/m/${memorial.shortId.toUpperCase()}`]) {
      const res = await visitor.get(path);
      expect(res.status, path).toBe(301);
      expect(res.headers.get("location"), path).toBe(`/memorials/${memorial.id}`);
    }
    expect((await owner.get(`/m/${memorial.shortId}`)).headers.get("location")).toBe(`/memorials/${memorial.id}`);
    // A name change does not move it.
    expect((await owner.put(`/api/memorials/${memorial.id}`, { title: "Nana Łucja" })).status).toBe(200);
    expect((await visitor.get(`/m/${memorial.shortId}`)).headers.get("location")).toBe(`/memorials/${memorial.id}`);

    // Unknown, malformed (a 0 or an l is never in one), too long, or the page's own id: the memorial page's 404.
    const unknown = memorial.shortId === "zzzzzzzz" ? "yyyyyyyy" : "zzzzzzzz";
    for (const path of [`/m/${unknown}`, "/m/0ooooooo", `/m/${memorial.shortId}l`, `/m/${memorial.id}`, "/m/abc"]) {
      const res = await visitor.get(path);
      expect(res.status, path).toBe(404);
      expect(res.text, path).toContain("Memorial Not Found");
    }
  });

  it("redirects for a private memorial too, whose page then keeps it from a visitor", async () => {
    const hidden = (await owner.post("/api/memorials", { firstName: "Hidden", lastName: "Stone", visibility: "private", isPublished: true })).json;
    const visitor = client(server.url);
    const res = await visitor.get(`/m/${hidden.shortId}`);
    expect(res.status).toBe(301);
    expect((await visitor.get(res.headers.get("location")!)).status).toBe(403);
  });

  it("gives the owner the code as PNG, SVG and an A4 PDF, each reading exactly PUBLIC_URL + /m/<shortId>", async () => {
    const url = `${PUBLIC_URL}/m/${memorial.shortId}`;
    const files = { png: "image/png", svg: "image/svg+xml", pdf: "application/pdf" } as const;
    const got: Record<string, Buffer> = {};
    for (const [format, type] of Object.entries(files)) {
      const res = await download(owner, qr(format));
      expect(res.status, format).toBe(200);
      expect(res.headers.get("content-type"), format).toBe(type);
      expect(res.headers.get("content-disposition"), format).toMatch(new RegExp(`^attachment; filename="everlight-qr-${memorial.shortId}\\.${format}"`));
      expect(res.headers.get("cache-control"), format).toMatch(/^private, no-store/);
      expect(res.headers.get("x-content-type-options"), format).toBe("nosniff");
      got[format] = res.body;
    }

    const png = await sharp(got.png).metadata();
    expect([png.width, png.height]).toEqual([1200, 1200]);
    expect(await decodeQr(got.png)).toBe(url);

    expect(got.svg.toString()).toMatch(/^<svg /);
    expect(await decodeQr(got.svg, { density: 150 })).toBe(url);

    const info = await pdfInfo(got.pdf);
    expect(info.pages).toBe(1);
    expect(info.pageSize).toMatch(/A4/);
    const text = await pdfText(got.pdf);
    for (const expected of ["Łucja Żółkiewska-Σοφία", "April 12, 1931 – February 29, 2024", url]) expect(text).toContain(expected);
    const [page] = await pdfPageImages(got.pdf, 100);
    expect(await decodeQr(page)).toBe(url);
  });

  it("shows the family's QR page: the link, a preview that reads the same, and the three downloads", async () => {
    const page = plain((await owner.get(`/memorials/${memorial.id}/qr`)).text);
    expect(page).toContain("QR code and permanent link");
    expect(page).toContain(`>${PUBLIC_URL}/m/${memorial.shortId}</a>`);
    for (const format of ["pdf", "png", "svg"]) expect(page).toContain(`href="${qr(format)}"`);
    const preview = /src="data:image\/svg\+xml;base64,([^"]+)"/.exec(page)?.[1];
    expect(preview).toBeTruthy();
    expect(await decodeQr(Buffer.from(preview!, "base64"), { density: 150 })).toBe(`${PUBLIC_URL}/m/${memorial.shortId}`);
    // The edit page leads there.
    expect(plain((await owner.get(`/memorials/${memorial.id}/edit`)).text)).toContain(`href="/memorials/${memorial.id}/qr"`);
  });

  it("is 404 to another member, an administrator who is no co-manager, and a visitor (the page asks a visitor to sign in), and for an unknown format", async () => {
    for (const format of ["png", "svg", "pdf"]) {
      for (const [name, who] of [
        ["member", other],
        ["administrator", admin],
        ["visitor", null],
      ] as const) {
        const res = await download(who, qr(format));
        expect(res.status, `${name} ${format}`).toBe(404);
        expect(res.body.toString()).not.toContain(memorial.shortId);
      }
    }
    expect((await download(owner, qr("gif"))).status).toBe(404);
    expect((await download(owner, qr("png", "not-a-memorial"))).status).toBe(404);
    for (const who of [other, admin]) {
      const page = await who.get(`/memorials/${memorial.id}/qr`);
      expect(page.status).toBe(404);
      expect(page.text).not.toContain(memorial.shortId);
    }
    const visitor = await client(server.url).get(`/memorials/${memorial.id}/qr`);
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toMatch(/^\/login/);
  });

  it("lets a co-manager (an editor the owner invited) download it too", async () => {
    const editor = (await registerMember(server.url, { firstName: "Eda", lastName: "Editor" })).api;
    const email = (await editor.get("/api/auth/user")).json.email;
    expect((await formPost(owner, `/memorials/${memorial.id}/managers`, { intent: "invite", email, role: "editor" })).status).toBe(303);
    expect((await download(editor, qr("png"))).status).toBe(404);
    expect((await formPost(editor, await invitationLink(server.dataDir, email), { answer: "accept" })).status).toBe(303);
    const png = await download(editor, qr("png"));
    expect(png.status).toBe(200);
    expect(await decodeQr(png.body)).toBe(`${PUBLIC_URL}/m/${memorial.shortId}`);
    expect((await editor.get(`/memorials/${memorial.id}/qr`)).status).toBe(200);
  });

  it("knows a deleted memorial's address no more, as its page does; restored, it is the same address again", async () => {
    const gone = (await owner.post("/api/memorials", { firstName: "Gone", lastName: "Stone", visibility: "public", isPublished: true })).json;
    expect((await owner.delete(`/api/memorials/${gone.id}`)).status).toBe(200);
    const res = await client(server.url).get(`/m/${gone.shortId}`);
    expect(res.status).toBe(404);
    expect(res.text).toContain("Memorial Not Found");
    expect((await download(owner, qr("png", gone.id))).status).toBe(404);
    expect((await formPost(owner, "/my-memorials", { intent: "restore", memorialId: gone.id })).status).toBe(303);
    expect((await client(server.url).get(`/m/${gone.shortId}`)).headers.get("location")).toBe(`/memorials/${gone.id}`);
  });
});
