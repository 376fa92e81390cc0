import type { Actor } from "~/models/audit.server";
import type { useAppDatabase } from "./databases";

/**
 * The four people a memorial's co-editing tests need: the owner of a new memorial, an editor among its
 * co-managers, a member with no part in it and an administrator (who may not change a family's content).
 * Each test file makes its people its own way (unique addresses, so tests run side by side).
 */
export async function ownerEditorStrangerAdmin<M extends { id: string }>(
  app: ReturnType<typeof useAppDatabase>,
  person: (isAdmin?: boolean) => Promise<Actor>,
  memorialOf: (userId: string) => Promise<M>,
) {
  const owner = await person();
  const editor = await person();
  const stranger = await person();
  const admin = await person(true);
  const memorial = await memorialOf(owner.id);
  await app.db.prisma.memorialManager.create({ data: { memorialId: memorial.id, userId: editor.id, role: "editor" } });
  return { owner, editor, stranger, admin, memorial };
}
