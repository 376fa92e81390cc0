import { randomUUID } from "node:crypto";
import path from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";

// Every address the app answers, read from app/routes.ts itself (the file-based routes and the /api
// table), so that tests that must cover every route (malformed input, caching headers, access levels)
// cover a new one by default, without anyone remembering to add it.

export type RouteInfo = {
  /** The route's path pattern, e.g. /memorials/:id/edit */
  pattern: string;
  /** The route module, relative to app/. */
  file: string;
  api: boolean;
};

export async function routeTable(): Promise<RouteInfo[]> {
  // What the React Router Vite plugin sets before it reads app/routes.ts.
  (globalThis as { __reactRouterAppDirectory?: string }).__reactRouterAppDirectory = path.resolve("app");
  const { default: config } = (await import("../app/routes")) as { default: RouteConfigEntry[] | Promise<RouteConfigEntry[]> };
  const routes = new Map<string, RouteInfo>();
  const walk = (entries: RouteConfigEntry[], parent: string) => {
    for (const entry of entries) {
      const pattern = entry.path ? `${parent.replace(/\/$/, "")}/${entry.path}` : parent || "/";
      // One entry per address: a layout's index child (listed after it) answers the layout's address.
      routes.set(pattern, { pattern, file: entry.file, api: /^\/api(\/|$)/.test(pattern) });
      if (entry.children) walk(entry.children, pattern);
    }
  };
  walk(await config, "");
  return [...routes.values()].sort((a, b) => a.pattern.localeCompare(b.pattern));
}

/** A concrete address for a pattern: params from `values`, else a random UUID; a splat is "x". */
export function fillPattern(pattern: string, values: Record<string, string> = {}): string {
  return pattern
    .split("/")
    .map((segment) => {
      if (segment === "*") return values["*"] ?? "x";
      if (!segment.startsWith(":")) return segment;
      const name = segment.slice(1).replace(/\?$/, "");
      return encodeURIComponent(values[name] ?? randomUUID());
    })
    .join("/");
}
