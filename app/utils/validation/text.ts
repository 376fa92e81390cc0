import { z } from "~/utils/validation/zod";
import { hasControlCharacters, TEXT_MESSAGES } from "./text-rules";

export { TEXT_MESSAGES } from "./text-rules";

/**
 * `z.string()` for anything a person types: refuses hidden control characters (a NUL byte cannot be
 * stored by PostgreSQL) with one clear message before any other check of the field runs.
 */
export function text(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).refine((value) => !hasControlCharacters(value), { error: TEXT_MESSAGES.control, abort: true });
}
