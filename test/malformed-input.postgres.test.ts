import { describe, it } from "vitest";
import { inject } from "vitest";
import { describeMalformedInput } from "./malformed-input";

// Issue 13 §6 on PostgreSQL (test/malformed-input.ts says what is sent and expected).
if (inject("postgresUrl")) describeMalformedInput("postgres");
else describe("malformed input on postgres", () => it.skip(inject("postgresSkipReason") ?? "PostgreSQL is not available", () => {}));
