import { describeMalformedInput } from "./malformed-input";

// Issue 13 §6 on embedded PGlite (test/malformed-input.ts says what is sent and expected).
describeMalformedInput("pglite");
