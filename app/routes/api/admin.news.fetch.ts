import { fetchNewsAsAdmin } from "~/models/admin.server";
import { NEWS_MESSAGES } from "~/models/news.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { apiError } from "~/request/api.server";
import { clientIp } from "~/request/facts.server";
import { failingAs } from "~/request/refusal.server";

// POST /api/admin/news/fetch ("Failed to fetch news. Please try again." or "News fetched"): reads
// NEWS_FEEDS now. 200 with what was added and which feeds were
// not read; 502 when none could be read (nothing changed); 409 when no feed is set up, saying how to add one.

const api = apiRoute({
  POST: endpoint({
    access: "admin",
    handle: ({ user, request }) =>
      failingAs(NEWS_MESSAGES.failed, async () => {
        const result = await fetchNewsAsAdmin({ id: user.id, email: user.email, isAdmin: true, ip: clientIp(request) });
        if (result.ok) {
          return {
            message: NEWS_MESSAGES.fetched,
            added: result.added,
            memorialsCreated: result.memorials.length,
            memorials: result.memorials,
            feedsRead: result.feedsRead,
            failures: result.failures,
          };
        }
        if (result.reason === "no-feeds") return apiError(409, result.message, { feeds: 0 });
        return apiError(502, result.message, { failures: result.failures });
      }),
  }),
});
export const loader = api.loader;
export const action = api.action;
