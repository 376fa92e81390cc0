import { describeMalformedInput } from "./malformed-input";

// Malformed input on embedded PGlite (test/malformed-input.ts says what is sent and expected).
describeMalformedInput("pglite");
