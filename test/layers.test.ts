import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { featureViolations, importCircles, importsOf, layerOf, layerViolations, type SourceFile } from "./layers";

// The layer rules of docs/layers.md, over every source file of app/ (tests and the generated client
// aside): a forbidden import fails here, with the file and the rule it breaks.

function sourcesUnder(dir: string): SourceFile[] {
  const files: SourceFile[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (name === "generated" || name.startsWith("+")) continue;
      files.push(...sourcesUnder(full));
    } else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) {
      files.push({ path: full.replace(/\\/g, "/"), source: readFileSync(full, "utf8") });
    }
  }
  return files;
}

describe("the layers of app/", () => {
  it("every import points the allowed way", () => {
    const files = sourcesUnder("app");
    expect(files.length).toBeGreaterThan(100);
    expect(layerViolations(files)).toEqual([]);
  });

  it("knows every file's layer", () => {
    const unknown = sourcesUnder("app")
      .filter((f) => layerOf(f.path) === "outside")
      .map((f) => f.path);
    expect(unknown).toEqual([]);
  });
});

describe("no circles, and features that use only what they may (app/models/README.md)", () => {
  const file = (p: string, source: string): SourceFile => ({ path: p, source });

  it("no file of app/ reaches itself through its imports", () => {
    expect(importCircles(sourcesUnder("app"))).toEqual([]);
  });

  it("every feature of app/models/ uses only the features it may", () => {
    expect(sourcesUnder("app/models").length).toBeGreaterThan(40);
    expect(featureViolations(sourcesUnder("app/models"))).toEqual([]);
  });

  it("finds a circle, however long, and says which way round it goes", () => {
    expect(
      importCircles([
        file("app/models/memorials/records.server.ts", `import { deleteStoredMedia } from "./media.server";`),
        file("app/models/memorials/media.server.ts", `import { queueFollowDigests } from "../community/follows.server";`),
        file("app/models/community/follows.server.ts", `import type { MemorialCard } from "~/models/memorials/records.server";`),
        file("app/utils/a.ts", `export * from "./b";`),
        file("app/utils/b.ts", `import { a } from "./c";`),
        file("app/utils/c.ts", `import { b } from "./b";`),
      ]),
    ).toEqual([
      "app/models/community/follows.server.ts → app/models/memorials/records.server.ts → app/models/memorials/media.server.ts → app/models/community/follows.server.ts",
      "app/utils/b.ts → app/utils/c.ts → app/utils/b.ts",
    ]);
    expect(importCircles([file("app/utils/a.ts", `import { b } from "./b";`), file("app/utils/b.ts", `import { c } from "./c";`)])).toEqual([]);
  });

  it("catches a feature that uses one it may not, a read of what emails say, and a helper that uses a feature", () => {
    expect(
      featureViolations([
        file("app/models/memorials/media.server.ts", `import { queueFollowDigests } from "../community/follows.server";`),
        file(
          "app/models/memorials/records.server.ts",
          `import { composeMail } from "../mail/compose.server";\nimport { queueMail } from "../mail/outbox.server";`,
        ),
        file("app/models/mail/outbox.server.ts", `import { isRecordId } from "../memorials/access.server";`),
        file("app/models/rate-limit.server.ts", `import { findUser } from "./accounts/users.server";`),
        file("app/models/tributes/tributes.server.ts", `import { listUsers } from "../admin.server";\nimport { recordAudit } from "../audit.server";`),
      ]),
    ).toEqual([
      "app/models/memorials/media.server.ts → ../community/follows.server: memorials may not use community",
      "app/models/memorials/records.server.ts → ../mail/compose.server: only the mail worker reads what emails say (mail/compose)",
      "app/models/mail/outbox.server.ts → ../memorials/access.server: mail/outbox writes the outbox and reads no feature",
      "app/models/rate-limit.server.ts → ./accounts/users.server: a helper (rate-limit) uses no feature",
      "app/models/tributes/tributes.server.ts → ../admin.server: tributes may use only the helpers (audit, rate-limit) at the top of app/models",
    ]);
  });

  it("lets features use the ones below them, the outbox and the helpers, and the composers read everything", () => {
    expect(
      featureViolations([
        file(
          "app/models/accounts/account.server.ts",
          `import { closeAccount } from "../memorials/deletion.server";\nimport { cancelPlan } from "../commerce/plan-instalments.server";`,
        ),
        file("app/models/mail/compose-community.server.ts", `import { digestFacts } from "../community/follows.server";`),
        file("app/models/housekeeping.server.ts", `import { purgeDeleted } from "./memorials/deletion.server";`),
        file("app/models/community/follows.server.ts", `import { digestGroup } from "../mail/follower-digests.server";`),
      ]),
    ).toEqual([]);
  });
});

describe("money flows one way (docs/decisions/016-money-by-lifecycle.md)", () => {
  // webhook → order or plan → provider: only the webhook dispatch imports both; nothing imports it.
  const crossings = (files: SourceFile[]) =>
    files.flatMap((file) => {
      const from = path.basename(file.path).replace(/\.server\.ts$/, "");
      return importsOf(file.source)
        .map((imp) => path.basename(imp.specifier).replace(/\.server$/, ""))
        .filter((to) => (to === "payment-webhooks" && from !== to) || (/^order/.test(from) && /^plan-/.test(to)) || (/^plan-/.test(from) && /^order/.test(to)))
        .map((to) => `${from} → ${to}`);
    });

  it("holds in app/models/commerce/", () => {
    expect(sourcesUnder("app/models/commerce").length).toBeGreaterThan(5);
    expect(crossings(sourcesUnder("app/models/commerce"))).toEqual([]);
  });

  it("is checked, on deliberately wrong files", () => {
    expect(
      crossings([
        { path: "app/models/commerce/order-completion.server.ts", source: `import { handlePlanWebhook } from "./payment-webhooks.server";` },
        { path: "app/models/commerce/plan-refunds.server.ts", source: `import { finishRefund } from "./order-refunds.server";` },
        { path: "app/models/commerce/payment-webhooks.server.ts", source: `import { completePayment } from "./order-completion.server";` },
      ]),
    ).toEqual(["order-completion → payment-webhooks", "plan-refunds → order-refunds"]);
  });
});

describe("the rules themselves, on deliberately wrong files", () => {
  const file = (p: string, source: string): SourceFile => ({ path: p, source });

  it("catches a model that imports a route, a component's type or React Router's redirect", () => {
    expect(
      layerViolations([
        file("app/models/bad.server.ts", `import { loader } from "~/routes/login";`),
        file("app/models/worse.server.ts", `import type { MemorialFormFailure } from "~/components/memorial/memorial-form";`),
        file("app/models/answers.server.ts", `import { data, redirect } from "react-router";`),
      ]),
    ).toEqual([
      "app/models/bad.server.ts → ~/routes/login: models may not import from routes",
      "app/models/worse.server.ts → ~/components/memorial/memorial-form: models may not import from components",
      "app/models/answers.server.ts → react-router { data, redirect }: models return results, not Responses",
    ]);
  });

  it("catches a component that imports a server module, and a service that imports a model or plumbing", () => {
    expect(
      layerViolations([
        file("app/components/card.tsx", `import { prisma } from "~/services/db.server";`),
        file("app/services/mail.server.ts", `import { getUserById } from "../models/user.server";\nimport { withToast } from "~/request/toast.server";`),
        file("app/utils/money.ts", `const x = await import("~/models/commerce/cart.server");`),
      ]),
    ).toEqual([
      "app/components/card.tsx → ~/services/db.server: components never import server modules",
      "app/services/mail.server.ts → ../models/user.server: services may not import from models",
      "app/services/mail.server.ts → ~/request/toast.server: services may not import from request",
      "app/utils/money.ts → ~/models/commerce/cart.server: utils may not import from models",
    ]);
  });

  it("lets types cross where only types are wanted, and downward imports pass", () => {
    expect(
      layerViolations([
        file("app/components/card.tsx", `import type { MemorialCard } from "~/models/memorial.server";\nimport { formatPence } from "~/utils/money";`),
        file("app/routes/x.tsx", `import { requireUser } from "~/request/auth.server";\nimport { prisma } from "~/services/db.server";`),
        file("app/request/auth.server.ts", `import { getUserById, type PublicUser } from "~/models/accounts/users.server";`),
      ]),
    ).toEqual([]);
    expect(importsOf(`import { type A, type B } from "x";`)[0].typeOnly).toBe(true);
  });
});
