import type { RouteConfig } from "@react-router/dev/routes";
import { route } from "@react-router/dev/routes";
import { flatRoutes } from "@react-router/fs-routes";

// File-based routes (app/routes), plus the spec's aliases: /memorial/{id} shows the same page as
// /memorials/{id}, and /market shows the browse page of /memorials (memorial-core.md §2).
export default [
  ...(await flatRoutes({ ignoredRouteFiles: ["**/*.test.*"] })),
  route("memorial/:id", "routes/memorials.$id._index.tsx", { id: "memorial-alias" }),
  route("market", "routes/memorials._index.tsx", { id: "market" }),
] satisfies RouteConfig;
