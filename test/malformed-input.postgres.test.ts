import { describe, it } from "vitest";
import { inject } from "vitest";
import { describeMalformedInput } from "./malformed-input";

// Malformed input on PostgreSQL (test/malformed-input.ts says what is sent and expected).
if (inject("postgresUrl")) describeMalformedInput("postgres");
else describe("malformed input on postgres", () => it.skip(inject("postgresSkipReason") ?? "PostgreSQL is not available", () => {}));
