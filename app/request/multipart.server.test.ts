import { describe, expect, it } from "vitest";
import { MAX_IMAGE_UPLOAD_BYTES } from "~/utils/upload-limits";
import { readImageUploadForm } from "./multipart.server";

describe("readImageUploadForm", () => {
  const form = (bytes: number) => {
    const body = new FormData();
    body.set("intent", "picture");
    body.set("profileImage", new File([new Uint8Array(bytes)], "photo.png", { type: "image/png" }));
    return new Request("http://localhost/account", { method: "POST", body });
  };

  it("reads a form within the limit", async () => {
    const data = await readImageUploadForm(form(1000));
    expect(data.get("intent")).toBe("picture");
    expect((data.get("profileImage") as File).size).toBe(1000);
  });

  it("refuses a body over the limit with 413, whether or not its length was declared", async () => {
    const declared = new Request("http://localhost/account", {
      method: "POST",
      headers: { "Content-Length": String(MAX_IMAGE_UPLOAD_BYTES + 1), "Content-Type": "multipart/form-data; boundary=x" },
      body: "small",
    });
    await expect(readImageUploadForm(declared)).rejects.toMatchObject({ status: 413, message: "File too large: Please select an image smaller than 5MB" });
    // A streamed body (no Content-Length) is counted as it arrives.
    const original = form(2048);
    const streamed = new Request("http://localhost/account", {
      method: "POST",
      headers: { "Content-Type": original.headers.get("Content-Type")! },
      body: original.body,
      duplex: "half",
    } as RequestInit);
    await expect(readImageUploadForm(streamed, 1024)).rejects.toMatchObject({ status: 413 });
  });
});
