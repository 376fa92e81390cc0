import type { RouteConfig } from "@react-router/dev/routes";
import { flatRoutes } from "@react-router/fs-routes";

// File-based routes (app/routes). Aliases such as /memorial/:id and /market are added here by the
// issues that build those screens.
export default flatRoutes() satisfies RouteConfig;
