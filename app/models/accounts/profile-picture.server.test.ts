import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTempDataDir } from "../../../test/data-dir";
import { databaseKinds } from "../../../test/databases";
import { setDatabase, type Database } from "~/services/db.server";
import { ImageRejectedError } from "~/services/images.server";
import { deleteObject, getObject, isValidKey, putObject } from "~/services/storage.server";
import { getUserById } from "./users.server";
import { avatarKey } from "../../services/avatars.server";
import { removeProfilePicture, setProfilePicture } from "./profile-picture.server";

// Nothing above calls getEnv() at import time, so the temp folder is the one it reads.
useTempDataDir("avatars");

const png = (width = 600, height = 400) =>
  sharp({ create: { width, height, channels: 4, background: { r: 30, g: 120, b: 200, alpha: 1 } } })
    .png()
    .toBuffer();

describe.each(databaseKinds)("profile pictures on $name", ({ skip, open }) => {
  let db: Database;
  let n = 0;
  const newUser = () =>
    db.prisma.user.create({ data: { email: `avatar-${Date.now()}-${n++}@example.com`, firstName: "Ada", lastName: "Lovelace", password: "x" } });

  beforeAll(async () => {
    if (skip) return;
    db = await open();
    setDatabase(db);
  });
  afterAll(async () => {
    setDatabase(undefined);
    await db?.close();
  });

  it.skipIf(skip)("stores a real PNG as a 256×256 WebP and points the user at it", async () => {
    const user = await newUser();
    const updated = await setProfilePicture(user.id, await png());
    expect(updated.profileImageUrl).toMatch(/^\/media\/avatars\/[0-9a-f-]{36}\.webp$/);
    expect((await getUserById(user.id))?.profileImageUrl).toBe(updated.profileImageUrl);

    const stored = await getObject(avatarKey(updated.profileImageUrl)!);
    expect(stored?.contentType).toBe("image/webp");
    expect(await sharp(stored!.body).metadata()).toMatchObject({ format: "webp", width: 256, height: 256 });
  });

  it.skipIf(skip)("refuses a 6 MB file with 413 and the words members are shown, leaving the picture as it was", async () => {
    const user = await newUser();
    const { profileImageUrl: before } = await setProfilePicture(user.id, await png());
    // Starts like a PNG, so only the size can be the reason.
    const huge = Buffer.alloc(6 * 1024 * 1024);
    (await png(8, 8)).copy(huge);
    const error = await setProfilePicture(user.id, huge).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImageRejectedError);
    expect(error).toMatchObject({ status: 413, message: "File too large: Please select an image smaller than 5MB" });
    expect((await getUserById(user.id))?.profileImageUrl).toBe(before);
    expect(await getObject(avatarKey(before)!)).not.toBeNull();
  });

  it.skipIf(skip)("refuses a text file called photo.jpg as an invalid file type (415)", async () => {
    const user = await newUser();
    const error = await setProfilePicture(user.id, Buffer.from("not an image")).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 415, message: "Invalid file type" });
    expect((await getUserById(user.id))?.profileImageUrl).toBeNull();
  });

  it.skipIf(skip)("refuses a corrupt image (400) without saving anything", async () => {
    const user = await newUser();
    const corrupt = (await png()).subarray(0, 60);
    await expect(setProfilePicture(user.id, corrupt)).rejects.toMatchObject({ status: 400, message: "Failed to process image. Please try again." });
    expect((await getUserById(user.id))?.profileImageUrl).toBeNull();
  });

  it.skipIf(skip)("deletes the old picture when it is replaced or removed, and leaves outside URLs alone", async () => {
    const user = await newUser();
    const first = (await setProfilePicture(user.id, await png())).profileImageUrl;
    const second = (await setProfilePicture(user.id, await png(300, 900))).profileImageUrl;
    expect(second).not.toBe(first);
    expect(await getObject(avatarKey(first)!)).toBeNull();
    expect(await getObject(avatarKey(second)!)).not.toBeNull();

    expect((await removeProfilePicture(user.id)).profileImageUrl).toBeNull();
    expect(await getObject(avatarKey(second)!)).toBeNull();

    // A picture that is not ours (the demo data's, say) is replaced but never "deleted" in storage:
    // the same-looking key under another prefix survives.
    await putObject("memorials/keep-me.webp", Buffer.from("x"), "image/webp");
    await db.prisma.user.update({ where: { id: user.id }, data: { profileImageUrl: "/media/memorials/keep-me.webp" } });
    await setProfilePicture(user.id, await png());
    expect(await getObject("memorials/keep-me.webp")).not.toBeNull();
  });
});

describe("storage keys", () => {
  it("accepts the keys the server makes and refuses anything that could leave the uploads folder", async () => {
    expect(isValidKey("avatars/0b7e1c7a-1d0b-4c55-9a8e-3f1f2b9c0d11.webp")).toBe(true);
    for (const key of ["", "/etc/passwd", "../secrets", "avatars/../../x", "avatars\\x.webp", "avatars//x", ".hidden", "avatars/x.webp.meta.json", "a/\0b"]) {
      expect(isValidKey(key), key).toBe(false);
      await expect(putObject(key, Buffer.from("x"), "text/plain"), key).rejects.toThrow(/Invalid storage key/);
      await expect(getObject(key), key).rejects.toThrow(/Invalid storage key/);
    }
  });

  it("keeps the content type it was given, and deleting twice is fine", async () => {
    await putObject("tests/a.bin", Buffer.from("hello"), "text/plain; charset=utf-8");
    expect(await getObject("tests/a.bin")).toEqual({ body: Buffer.from("hello"), contentType: "text/plain; charset=utf-8" });
    await deleteObject("tests/a.bin");
    await deleteObject("tests/a.bin");
    expect(await getObject("tests/a.bin")).toBeNull();
  });
});
