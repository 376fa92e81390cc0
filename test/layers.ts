import path from "node:path";

// The layers of app/ and which way their imports may point (docs/layers.md):
//
//   routes (screens, the /api, entry files) → request (plumbing) → models → services → utils
//   components: used by routes; they import utils and each other, and only types from anywhere else
//   emails: the email templates, rendered by the mail worker (server/); they import utils
//
// Pointing down, skipping a layer, is fine; pointing up or sideways is not. Read from the source text
// (static and dynamic imports, re-exports), so the rules need no build.

export type Layer = "routes" | "request" | "models" | "services" | "utils" | "components" | "emails" | "generated" | "assets" | "outside";

export function layerOf(file: string): Layer {
  const rel = file.replace(/\\/g, "/").replace(/^.*?\bapp\//, "");
  // React Router's generated route types, Prisma's client and our ambient declarations.
  if (rel.includes("/+types/") || rel.startsWith("+types/") || rel.startsWith("types/")) return "generated";
  if (/\.css(\?|$)/.test(rel)) return "assets";
  if (/^(routes\/|root\.tsx$|entry\.(server|client)\.tsx$|routes\.ts$)/.test(rel)) return "routes";
  for (const layer of ["request", "models", "services", "utils", "components", "emails", "generated"] as const) {
    if (rel === layer || rel.startsWith(`${layer}/`)) return layer;
  }
  return "outside";
}

/** Which layers each layer may import values from (types: see TYPE_ONLY_ALLOWED). */
const ALLOWED: Record<Layer, Layer[]> = {
  routes: ["routes", "request", "models", "services", "utils", "components", "emails", "generated", "assets"],
  request: ["request", "models", "services", "utils", "generated"],
  models: ["models", "services", "utils", "generated"],
  services: ["services", "utils", "generated"],
  utils: ["utils"],
  components: ["components", "utils"],
  emails: ["emails", "utils"],
  generated: ["generated"],
  assets: [],
  outside: ["routes", "request", "models", "services", "utils", "components", "emails", "generated", "assets"],
};

/** Components may name the types of what they are given (loader data) wherever those are declared. */
const TYPE_ONLY_ALLOWED: Partial<Record<Layer, Layer[]>> = {
  components: ["routes", "request", "models", "services", "generated"],
  // The outbox composes the props an email template takes (app/models/mail.server.ts).
  models: ["emails"],
};

/** React Router's answers belong to routes and request plumbing: a model returns a result, never a Response. */
const RESPONSE_HELPERS = /\b(?:redirect|redirectDocument|replace|data|json)\b/;

type Import = { specifier: string; typeOnly: boolean; names: string };

export function importsOf(source: string): Import[] {
  const found: Import[] = [];
  const statement = /(?:^|\n)\s*(import|export)\s+(type\s+)?([\s\S]*?)\s+from\s+["']([^"']+)["']/g;
  for (const m of source.matchAll(statement)) {
    const names = m[3];
    // `import { type A, type B }` is type-only too.
    const allTyped =
      /^\{[\s\S]*\}$/.test(names.trim()) &&
      names
        .replace(/[{}\s]/g, "")
        .split(",")
        .filter(Boolean)
        .every((n) => n.startsWith("type"));
    found.push({ specifier: m[4], typeOnly: !!m[2] || allTyped, names });
  }
  for (const m of source.matchAll(/(?:^|\n)\s*import\s+["']([^"']+)["']/g)) found.push({ specifier: m[1], typeOnly: false, names: "" });
  for (const m of source.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) found.push({ specifier: m[1], typeOnly: false, names: "" });
  return found;
}

/** The file an import names, relative to the repository, or null for a package. */
function resolve(from: string, specifier: string): string | null {
  if (specifier.startsWith("~/")) return path.posix.join("app", specifier.slice(2));
  if (specifier.startsWith(".")) return path.posix.join(path.posix.dirname(from.replace(/\\/g, "/")), specifier);
  return null;
}

export type SourceFile = { path: string; source: string };

/** Every import that points the wrong way, as "file → import: why". */
export function layerViolations(files: SourceFile[]): string[] {
  const violations: string[] = [];
  for (const file of files) {
    const layer = layerOf(file.path);
    for (const imp of importsOf(file.source)) {
      if (imp.specifier === "react-router" && (layer === "models" || layer === "services") && !imp.typeOnly && RESPONSE_HELPERS.test(imp.names)) {
        violations.push(`${file.path} → react-router { ${imp.names.replace(/[{}\s]+/g, " ").trim()} }: ${layer} return results, not Responses`);
        continue;
      }
      const target = resolve(file.path, imp.specifier);
      if (!target) continue;
      const targetLayer = layerOf(target);
      if (layer === "components" && !imp.typeOnly && /\.server(\.|$)/.test(target)) {
        violations.push(`${file.path} → ${imp.specifier}: components never import server modules`);
        continue;
      }
      const allowed = ALLOWED[layer].includes(targetLayer) || (imp.typeOnly && (TYPE_ONLY_ALLOWED[layer] ?? []).includes(targetLayer));
      if (!allowed) violations.push(`${file.path} → ${imp.specifier}: ${layer} may not import from ${targetLayer}`);
    }
  }
  return violations;
}
