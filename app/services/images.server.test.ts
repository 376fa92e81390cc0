import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { detectImageType, ImageRejectedError, toWebp } from "./images.server";

const canvas = (width = 40, height = 20) => sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } });

describe("detectImageType", () => {
  it("recognises real JPEG, PNG, WebP and GIF bytes", async () => {
    expect(detectImageType(await canvas().jpeg().toBuffer())).toBe("image/jpeg");
    expect(detectImageType(await canvas().png().toBuffer())).toBe("image/png");
    expect(detectImageType(await canvas().webp().toBuffer())).toBe("image/webp");
    expect(detectImageType(await canvas().gif().toBuffer())).toBe("image/gif");
  });

  it("goes by the bytes, never the name: text, SVG, HTML and nothing at all are not images", () => {
    // What a "photo.jpg" that is really a text file contains.
    expect(detectImageType(Buffer.from("not an image"))).toBeNull();
    expect(detectImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'))).toBeNull();
    expect(detectImageType(Buffer.from("<!doctype html><img src=x onerror=alert(1)>"))).toBeNull();
    expect(detectImageType(new Uint8Array())).toBeNull();
    // A RIFF file that is not WebP (a WAV) is not an image either.
    expect(detectImageType(Buffer.from("RIFF\0\0\0\0WAVEfmt "))).toBeNull();
  });
});

describe("toWebp", () => {
  it("makes a WebP of the requested size, without the original's metadata", async () => {
    const jpeg = await canvas(400, 300)
      .jpeg()
      .withExif({ IFD0: { Copyright: "x", Artist: "Someone" } })
      .toBuffer();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();

    const out = await toWebp(jpeg, { width: 256, height: 256, fit: "cover" });
    const meta = await sharp(out).metadata();
    expect(detectImageType(out)).toBe("image/webp");
    expect(meta).toMatchObject({ format: "webp", width: 256, height: 256 });
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
  });

  it("turns a photo upright by its EXIF orientation before resizing", async () => {
    // Stored landscape, but the camera says "rotate 90°": the picture is really portrait.
    const sideways = await canvas(40, 20).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const out = await toWebp(sideways, { width: 100, height: 100, fit: "inside" });
    expect(await sharp(out).metadata()).toMatchObject({ width: 50, height: 100 });
  });

  it("keeps the first frame of an animated GIF", async () => {
    const frame = (background: string) =>
      sharp({ create: { width: 10, height: 30, channels: 3, background } })
        .png()
        .toBuffer();
    const animated = await sharp([await frame("#00f"), await frame("#f00")], { join: { animated: true } })
      .gif()
      .toBuffer();
    expect((await sharp(animated).metadata()).pages).toBe(2);
    const out = await toWebp(animated, { width: 20, height: 20, fit: "cover" });
    const meta = await sharp(out).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 20, height: 20 });
    expect(meta.pages).toBeUndefined();
  });

  it("refuses bytes that only look like an image with the message members are shown and 400", async () => {
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from("garbage that is not a JPEG at all".repeat(20))]);
    const error = await toWebp(broken, { width: 10, height: 10, fit: "cover" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImageRejectedError);
    expect(error).toMatchObject({ status: 400, message: "Failed to process image. Please try again." });
  });
});
