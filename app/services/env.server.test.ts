import { describe, expect, it } from "vitest";
import { parseEnv, processPlan } from "./env.server";

// How many server processes `npm start` runs (server.js): WORKERS, one per core on PostgreSQL by default,
// always one on the embedded database (it says why when more were asked for), and a clear refusal otherwise.

const POSTGRES = "postgresql://app@db.example/everlight";

describe("processPlan", () => {
  it("runs one process per core on PostgreSQL unless WORKERS says how many", () => {
    expect(processPlan(parseEnv({ DATABASE_URL: POSTGRES }), 8)).toEqual({ workers: 8 });
    expect(processPlan(parseEnv({ DATABASE_URL: POSTGRES, WORKERS: "3" }), 8)).toEqual({ workers: 3 });
    expect(processPlan(parseEnv({ DATABASE_URL: POSTGRES, WORKERS: " 1 " }), 8)).toEqual({ workers: 1 });
    // Blank, as in a copied .env.example, means unset.
    expect(processPlan(parseEnv({ DATABASE_URL: POSTGRES, WORKERS: "" }), 2)).toEqual({ workers: 2 });
  });

  it("runs one process on the embedded database, with a warning when more were asked for", () => {
    expect(processPlan(parseEnv({}), 8)).toEqual({ workers: 1 });
    expect(processPlan(parseEnv({ WORKERS: "1" }), 8)).toEqual({ workers: 1 });
    const plan = processPlan(parseEnv({ WORKERS: "4" }), 8);
    expect(plan.workers).toBe(1);
    expect(plan.warning).toMatch(/^WORKERS=4 is ignored: the embedded database \(PGlite\) can be opened by one process only/);
  });

  it.each(["0", "-2", "1.5", "two", "300"])("refuses WORKERS=%s with a message naming it", (value) => {
    expect(() => parseEnv({ DATABASE_URL: POSTGRES, WORKERS: value })).toThrow(/WORKERS: WORKERS must be/);
  });
});
