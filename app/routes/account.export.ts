import type { Route } from "./+types/account.export";
import { exportUserData } from "~/models/accounts/users.server";
import { requireUser } from "~/request/auth.server";
import { vaultCaller } from "~/request/vault.server";

// "Download my data" on the Account tab (UK GDPR right of access): everything we hold about the
// member as one JSON file. Never cached: it is personal and changes with every edit.

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const body = JSON.stringify(await exportUserData(await vaultCaller(request, user)), null, 2);
  // The date as it is in the UK, where the member most likely is, not UTC's.
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
  return new Response(body, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="everlight-data-${today}.json"`,
      "Cache-Control": "no-store",
    },
  });
}
