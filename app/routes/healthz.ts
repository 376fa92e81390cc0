import { checkDatabase } from "~/services/health.server";

// For load balancers: 200 while the database answers, 503 otherwise. Never cached.
export async function loader() {
  const database = await checkDatabase();
  return Response.json(
    { status: database.ok ? "ok" : "unavailable", database: database.ok ? "ok" : "unreachable" },
    { status: database.ok ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
