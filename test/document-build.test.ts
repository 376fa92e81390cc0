import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler, matchRoutes, type ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { startSession } from "~/request/session.server";
import { documentBuild, onlyCatchAllClaims, pagesBuild, routeTree } from "../server/request-handler";
import { databaseKinds, useAppDatabase } from "./databases";
import { fillPattern, routeTable } from "./route-table";

// A document is rendered from a build of only the routes it needs (server/request-handler.ts, decision 031):
// its own address's and those of each address above it. That must change nothing a browser gets: for every
// page of the route table, the built app's answer from the narrowed build is the answer from every page
// route, byte for byte (the same nonce and form stamp given to both), status and headers included.

process.env.SESSION_SECRET ??= "document-build-test-secret-that-is-long-enough-0123";
// Views written as they are counted: the memorial page, opened before, would otherwise add its views to the
// gallery between the two renders being compared, whenever the once-a-second write fell there.
process.env.VIEW_FLUSH_MS = "0";

describe.each(databaseKinds)("a document rendered from its narrowed build, on $name", (kind) => {
  const app = useAppDatabase(kind);

  it.skipIf(kind.skip)("is what the whole pages' build renders, for every page", { timeout: 120_000 }, async () => {
    const built = (await import(pathToFileURL(path.resolve("build/server/index.js")).href)) as { serverBuild: () => Promise<ServerBuild> };
    const pages = pagesBuild(await built.serverBuild());
    const owner = await app.db.prisma.user.create({
      data: { email: "narrow@example.test", password: "x", firstName: "Nell", lastName: "Narrow", isAdmin: true },
    });
    const memorial = await app.db.prisma.memorial.create({
      data: {
        userId: owner.id,
        firstName: "Ines",
        lastName: "Narrow",
        title: "In memory of Ines",
        biography: "Kept bees.",
        visibility: "public",
        isPublished: true,
      },
    });
    const context = { cspNonce: "bm9uY2Utbm9uY2Utbm9uY2U=", formStamp: "stamp" };
    // Signed in as the memorial's owner, an administrator: the members' and administrators' pages render too.
    const member = (await startSession(new Request("http://localhost/"), owner.id)).split(";")[0];
    const answer = async (build: ServerBuild, address: string, cookie: string) => {
      const headers = cookie ? { Cookie: cookie } : undefined;
      const res = await createRequestHandler(build, "production")(new Request(`http://localhost${address}`, { headers }), context);
      const type = res.headers.get("content-type");
      // A page's HTML byte for byte; a download (an export stamped with the time it was made) by its kind.
      const body = type?.startsWith("text/html") ? await res.text() : `${(await res.arrayBuffer()).byteLength > 0}`;
      return { status: res.status, location: res.headers.get("location"), type, body };
    };
    const addresses = (await routeTable())
      .filter((route) => !route.api)
      .map((route) => fillPattern(route.pattern, { id: memorial.id, shortId: "x", "*": "no-such-page" }));
    expect(addresses).toContain(`/memorials/${memorial.id}`);
    for (const address of [...addresses, `/memorials/${memorial.id}?tributes=2`, "/memorials?search=bees", "/no/such/page"]) {
      const narrowed = documentBuild(pages, new URL(address, "http://localhost").pathname);
      expect(Object.keys(narrowed.routes).length, address).toBeLessThan(Object.keys(pages.routes).length);
      for (const cookie of ["", member]) {
        const got = await answer(narrowed, address, cookie);
        expect(got, `${address}${cookie ? ", signed in" : ""}`).toEqual(await answer(pages, address, cookie));
      }
    }
  });
});

describe("an address only the catch-all (the not-found page) claims", () => {
  it("is told by its first segment as matching every route tells it, and is rendered from one narrowed build", async () => {
    const built = (await import(pathToFileURL(path.resolve("build/server/index.js")).href)) as { serverBuild: () => Promise<ServerBuild> };
    const pages = pagesBuild(await built.serverBuild());
    const matchedOnlyByCatchAll = (pathname: string) => matchRoutes(routeTree(pages), pathname)?.at(-1)?.route.id === "routes/$";
    const addresses = (await routeTable())
      .filter((route) => !route.api)
      .map((route) => fillPattern(route.pattern, { id: "x", shortId: "x", "*": "no-such-page" }));
    const unclaimed = [
      "/no/such/page",
      "/memorialsx",
      "/x/memorials",
      "/help.",
      "/api",
      "/api/auth/user",
      "/ünïcode",
      "/%C3%BCber",
      "/%2Fmemorials",
      "/.well-known/x",
    ];
    const claimed = ["/MEMORIALS", "/%6Demorials", "/Robots.TXT", "/m/abc", "/memorials/", "//help", "/account/nothing-here"];
    for (const pathname of [...addresses, ...unclaimed, ...claimed, "/", "//", "/%E0%A4%A"]) {
      // Never says so of an address a route of its own claims.
      if (onlyCatchAllClaims(pages, pathname)) expect(matchedOnlyByCatchAll(pathname), pathname).toBe(true);
    }
    for (const pathname of unclaimed) {
      expect(onlyCatchAllClaims(pages, pathname), pathname).toBe(true);
      expect(documentBuild(pages, pathname), pathname).toBe(documentBuild(pages, "/no/such/page"));
    }
    for (const pathname of claimed) expect(onlyCatchAllClaims(pages, pathname), pathname).toBe(false);
    expect(Object.keys(documentBuild(pages, "/no/such/page").routes).sort()).toEqual(["root", "routes/$", "routes/_index"]);
  });
});
