import { listFriends, toApiPerson } from "~/models/community/friends.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { apiError, json } from "~/request/api.server";
import { PAGE_NUMBER_MESSAGE, parsePageNumber } from "~/utils/paging";

// GET /api/friends: the caller's friends, by name, 50 a page
// (?page=N; X-Total-Count says how many in all). Each carries the friend's user id as `id`, which is what
// a client matches a memorial's owner against, and DELETE /api/friends/{id} takes.

const api = apiRoute({
  GET: endpoint({
    access: "member",
    handle: async ({ user, url }) => {
      const page = parsePageNumber(url.searchParams.get("page"));
      if (page === null) return apiError(400, PAGE_NUMBER_MESSAGE);
      const list = await listFriends(user.id, page);
      return json(
        list.items.map((f) => ({ ...toApiPerson(f), friendsSince: f.friendsSince.toISOString() })),
        { headers: { "X-Total-Count": String(list.total) } },
      );
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
