import type { RouteConfig } from "@react-router/dev/routes";
import { route } from "@react-router/dev/routes";
import { flatRoutes } from "@react-router/fs-routes";

// File-based routes (app/routes), plus the spec's aliases: /memorial/{id} shows the same page as
// /memorials/{id} (memorial-core.md §2). /market is added with the browse page.
export default [
  ...(await flatRoutes({ ignoredRouteFiles: ["**/*.test.*"] })),
  route("memorial/:id", "routes/memorials.$id._index.tsx", { id: "memorial-alias" }),
] satisfies RouteConfig;
