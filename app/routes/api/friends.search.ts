import { searchMemberByEmail, toApiPerson } from "~/models/community/friends.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { apiError } from "~/request/api.server";
import { failingAs, refusalAnswer } from "~/request/refusal.server";
import { FRIEND_MESSAGES, friendSearchSchema } from "~/utils/validation/friends";

// GET /api/friends/search?email=:
// an array of at most one member, found by their exact address and only if they allow it (Account →
// Privacy), with their friendshipStatus. An unknown address, a member who opted out and the caller's own
// address all answer [] (README: search never tells whether an address is registered).

const api = apiRoute({
  GET: endpoint({
    access: "member",
    signInMessage: FRIEND_MESSAGES.searchSignIn,
    handle: ({ user, url }) =>
      failingAs(FRIEND_MESSAGES.searchFailed, async () => {
        const parsed = friendSearchSchema.safeParse({ email: url.searchParams.get("email") ?? "" });
        if (!parsed.success) return apiError(400, parsed.error.issues[0].message, { errors: { email: parsed.error.issues.map((i) => i.message) } });
        const result = await searchMemberByEmail(user, parsed.data.email);
        if (!result.ok) return refusalAnswer(result, FRIEND_MESSAGES.searchFailed);
        if (!result.match) return [];
        const { status, requestId, requestAllowedFrom, ...person } = result.match;
        return [{ ...toApiPerson(person), friendshipStatus: status, requestId, requestAllowedFrom: requestAllowedFrom?.toISOString() ?? null }];
      }),
  }),
});
export const loader = api.loader;
export const action = api.action;
