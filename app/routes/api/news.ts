import { listNews, toApiArticle } from "~/models/news.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { apiError } from "~/request/api.server";
import { matchesEtag } from "~/services/etag.server";
import { PAGE_NUMBER_MESSAGE, parsePageNumber } from "~/utils/paging";

// GET /api/news: the articles, newest first, 10 a page (?page=N;
// X-Total-Count). Rather than going stale for minutes in a client, the answer stays right on every
// instance: the list comes from a cache keyed by the table's version (app/models/news.server.ts), and the
// answer carries that version as its ETag with `public, no-cache`, so a browser or CDN may keep it but
// asks each time, and an unchanged list is a 304 that costs one indexed read. Every picture address is
// our own (/media/news/… or a demo picture), never another site's.

const api = apiRoute({
  GET: endpoint({
    access: "public",
    handle: async ({ url, request }) => {
      const page = parsePageNumber(url.searchParams.get("page"));
      if (page === null) return apiError(400, PAGE_NUMBER_MESSAGE);
      const list = await listNews(page);
      const etag = `W/"news.${list.version}.${list.page}"`;
      const headers = { ETag: etag, "Cache-Control": "public, no-cache", "X-Total-Count": String(list.total) };
      if (matchesEtag(request.headers.get("If-None-Match"), etag)) return new Response(null, { status: 304, headers });
      return Response.json(list.items.map(toApiArticle), { headers });
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
