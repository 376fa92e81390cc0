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
  // The outbox composes the props an email template takes (app/models/mail/).
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

/** The file an import names, among the files given (its extension or index file found), or null. */
function resolveAmong(paths: Set<string>, from: string, specifier: string): string | null {
  const base = resolve(from, specifier);
  if (!base) return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) if (paths.has(candidate)) return candidate;
  return null;
}

/**
 * Every circle of imports among the files, type imports included (a circle of types still ties the
 * modules' meaning together), as "a → b → a". Found with Tarjan's strongly connected components.
 */
export function importCircles(files: SourceFile[]): string[] {
  const paths = new Set(files.map((f) => f.path.replace(/\\/g, "/")));
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const from = file.path.replace(/\\/g, "/");
    const targets = importsOf(file.source)
      .map((imp) => resolveAmong(paths, from, imp.specifier))
      .filter((t): t is string => !!t && t !== from);
    edges.set(from, [...new Set(targets)]);
  }
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) circles.push(describeCircle(component, edges));
  };
  for (const v of [...paths].sort()) if (!index.has(v)) visit(v);
  return circles;
}

/** One way round a circle, from its first file in alphabetical order. */
function describeCircle(component: string[], edges: Map<string, string[]>): string {
  const members = new Set(component);
  const start = [...component].sort()[0];
  const path = [start];
  for (let at = start; ;) {
    const step = (edges.get(at) ?? []).filter((t) => members.has(t)).sort()[0];
    if (step === start || path.includes(step)) {
      path.push(step);
      break;
    }
    path.push(step);
    at = step;
  }
  return path.join(" → ");
}

// The features of app/models/ and which may use which (app/models/README.md). A feature is a folder;
// the files at the top of app/models/ are either helpers every feature may use (HELPERS) or use cases
// across features (the administrator's, the housekeeping round), which features never import.
// The email outbox is a seam: every feature writes to it (MAIL_WRITERS), and only the modules that
// compose emails read the features, so nothing comes back round.

export const FEATURE_USES: Record<string, string[]> = {
  memorials: [],
  tributes: ["memorials"],
  community: ["memorials"],
  commerce: ["memorials"],
  accounts: ["memorials", "commerce"],
  backups: [],
  mail: [],
};

const HELPERS = new Set(["audit", "rate-limit"]);
const MAIL_WRITERS = new Set(["outbox", "follower-digests"]);

type ModelModule = { feature: string | null; name: string };

function modelModule(file: string): ModelModule | null {
  const m = /(?:^|\/)app\/models\/(?:([^/]+)\/)?([^/]+?)(?:\.server)?(?:\.tsx?)?$/.exec(file.replace(/\\/g, "/"));
  return m ? { feature: m[1] ?? null, name: m[2] } : null;
}

/** Every import between features of app/models/ that the rules above do not allow, as "file → import: why". */
export function featureViolations(files: SourceFile[]): string[] {
  const violations: string[] = [];
  for (const file of files) {
    const from = modelModule(file.path);
    if (!from) continue;
    for (const imp of importsOf(file.source)) {
      const target = resolve(file.path, imp.specifier);
      const to = target && modelModule(target);
      if (!to || to.feature === from.feature) continue;
      const why = featureRule(from, to);
      if (why) violations.push(`${file.path} → ${imp.specifier}: ${why}`);
    }
  }
  return violations;
}

function featureRule(from: ModelModule, to: ModelModule): string | null {
  const fromName = from.feature ?? "the top of app/models";
  if (to.feature === null) {
    if (HELPERS.has(to.name)) return null;
    return from.feature === null ? null : `${fromName} may use only the helpers (${[...HELPERS].join(", ")}) at the top of app/models`;
  }
  if (to.feature === "mail") {
    if (MAIL_WRITERS.has(to.name)) return null;
    return `only the mail worker reads what emails say (mail/${to.name})`;
  }
  if (from.feature === null) return HELPERS.has(from.name) ? `a helper (${from.name}) uses no feature` : null;
  if (from.feature === "mail") return /^compose/.test(from.name) ? null : `mail/${from.name} writes the outbox and reads no feature`;
  if ((FEATURE_USES[from.feature] ?? []).includes(to.feature)) return null;
  return `${from.feature} may not use ${to.feature}`;
}
