import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";

// The S3-compatible half of storage.server.ts: any bucket that speaks S3 (AWS, R2, MinIO, a local test
// server) through the official SDK. Chosen when S3_BUCKET is set.

export type S3Config = {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle?: boolean;
};

export function s3Backend(config: S3Config) {
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle ?? !!config.endpoint,
    // A streamed upload would otherwise be sent "aws-chunked" with a trailing checksum, which many
    // S3-compatible stores (and the local test server) keep as part of the object: checksums only where
    // an operation requires one, so every store receives the plain bytes with their length.
    requestChecksumCalculation: "WHEN_REQUIRED",
    credentials: config.accessKeyId && config.secretAccessKey ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } : undefined,
  });
  return {
    /** A Blob (an upload waiting on disk) is streamed with its length, never read into memory. */
    async put(key: string, body: Uint8Array | Blob, contentType: string) {
      const streamed =
        body instanceof Blob ? { Body: Readable.fromWeb(body.stream() as WebReadableStream<Uint8Array>), ContentLength: body.size } : { Body: body };
      await client.send(new PutObjectCommand({ Bucket: config.bucket, Key: key, ...streamed, ContentType: contentType }));
    },
    async get(key: string) {
      try {
        const result = await client.send(new GetObjectCommand({ Bucket: config.bucket, Key: key }));
        const body = Buffer.from(await result.Body!.transformToByteArray());
        return { body, contentType: result.ContentType ?? "application/octet-stream" };
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === "NoSuchKey") return null;
        throw error;
      }
    },
    async stat(key: string) {
      try {
        const result = await client.send(new HeadObjectCommand({ Bucket: config.bucket, Key: key }));
        return { size: Number(result.ContentLength ?? 0), contentType: result.ContentType ?? "application/octet-stream" };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    /** The body as a Node stream, read as it is consumed. */
    async stream(key: string) {
      try {
        const result = await client.send(new GetObjectCommand({ Bucket: config.bucket, Key: key }));
        return result.Body as Readable;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async delete(key: string) {
      await client.send(new DeleteObjectCommand({ Bucket: config.bucket, Key: key }));
    },
    /** Every key under `prefix`, a page of 1,000 at a time. */
    async *keys(prefix?: string): AsyncGenerator<string> {
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: config.bucket, Prefix: prefix, ContinuationToken: token }));
        for (const object of page.Contents ?? []) if (object.Key) yield object.Key;
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
  };
}

function isMissing(error: unknown) {
  const name = (error as { name?: string }).name;
  return error instanceof NoSuchKey || error instanceof NotFound || name === "NoSuchKey" || name === "NotFound";
}
