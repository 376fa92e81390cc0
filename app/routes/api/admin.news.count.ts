import { newsStatus } from "~/models/news.server";
import { apiRoute, endpoint } from "~/request/api-route.server";

// GET /api/admin/news/count: how many articles there are, with how
// many feeds are set up (NEWS_FEEDS) and what the last fetch did, for the dashboard's News tab.

const api = apiRoute({
  GET: endpoint({
    access: "admin",
    handle: async () => {
      const status = await newsStatus();
      return {
        count: status.count,
        feeds: status.feeds,
        lastFetch: status.lastFetch && { ...status.lastFetch, startedAt: status.lastFetch.startedAt.toISOString() },
      };
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
