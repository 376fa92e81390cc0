// Any /api path the table in app/routes.ts does not declare: a JSON 404, never the HTML not-found page.
const notFound = () => Response.json({ message: "Not found" }, { status: 404, headers: { "Cache-Control": "no-store" } });

export const loader = notFound;
export const action = notFound;
