import { expect } from "vitest";

/** What a written page or document must say (each passage, word for word) and must not (none of `absent`). */
export function expectPassages(text: string, present: string[], absent: string[] = []) {
  for (const passage of present) expect(text).toContain(passage);
  for (const passage of absent) expect(text).not.toContain(passage);
}
