import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { PassThrough, pipeline, Transform, type Readable } from 'node:stream';
import { checkedKey, StoredFileMissing, type Storage } from './storage';

/** S3_*: any S3 API (AWS, MinIO, Garage, Ceph RGW; s3rver in the tests). */
export type S3Config = {
  bucket: string;
  region: string;
  /** S3_ENDPOINT; unset: AWS's endpoint for the region. */
  endpoint?: string;
  /** S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY; unset: the SDK's default chain (environment, instance role). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `endpoint/bucket/key` rather than `bucket.endpoint/key`: true by default with S3_ENDPOINT (self-hosted stores). */
  forcePathStyle: boolean;
};

/** Each part of a multipart upload: S3's least (5 MiB); at most QUEUE parts of one upload are in memory. */
const PART_BYTES = 5 * 1024 * 1024;
const QUEUE = 2;

const notFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
};

/** Skips `skip` bytes, passes `length`, then ends (the rest of the body is dropped with the request). */
function slice(skip: number, length: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      const from = Math.max(0, skip - seen);
      const to = Math.min(chunk.length, skip + length - seen);
      seen += chunk.length;
      if (to > from) this.push(chunk.subarray(from, to));
      if (seen >= skip + length) this.push(null);
      cb();
    },
  });
}

export type S3Storage = Storage & {
  /** A GET URL for `key` valid `seconds` (a download that does not pass through this process: bytes it need not decrypt). */
  presignedUrl(key: string, o: { seconds: number; contentType?: string; fileName?: string }): Promise<string>;
  client: S3Client;
};

const preconditionFailed = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'PreconditionFailed' || e?.$metadata?.httpStatusCode === 412 || e?.$metadata?.httpStatusCode === 409;
};

/**
 * The storage interface on an S3 bucket, keys as they are on disk (DATA_DIR/files/<key> is <bucket>/<key>),
 * bytes as the caller gives them (private files arrive already encrypted: encrypted-files.ts).
 * Streams both ways: a stream is uploaded in 5 MiB parts (lib-storage's Upload, at most two parts held);
 * reads and ranges stream the response body. An upload that fails is aborted, so no part is left behind,
 * and S3 shows an object only once it is whole (like the local disk's write-then-rename).
 */
export function s3Storage(c: S3Config): S3Storage {
  // The pin (@aws-sdk 3.1178, the last line on Node 20) is deliberate: decision 0030.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const client = new S3Client({
    region: c.region,
    endpoint: c.endpoint,
    forcePathStyle: c.forcePathStyle,
    credentials: c.accessKeyId && c.secretAccessKey ? { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey } : undefined,
    // Checksums only where the API requires them: stores other than AWS's do not all read the SDK's
    // default trailing checksums (aws-chunked bodies); the bytes are checked by their own tag anyway.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = c.bucket;

  /** The body of a GET as a stream returned at once: "no such key" fails it as StoredFileMissing; a reader that gives up ends the request. */
  const read = (key: string, range?: { start: number; end: number }): Readable => {
    const Key = checkedKey(key);
    const out = new PassThrough();
    const abort = new AbortController();
    out.once('close', () => abort.abort());
    client
      .send(new GetObjectCommand({ Bucket, Key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }), {
        abortSignal: abort.signal,
      })
      .then(
        (res) => {
          const body = res.Body as Readable;
          if (!range) return pipeline(body, out, () => {});
          // Some stores answer a range with more than asked (s3rver: `bytes=0-0` is the whole object):
          // what they sent is read from Content-Range, and only the bytes asked for are passed on.
          const from = Number(/^bytes (\d+)-/.exec(res.ContentRange ?? '')?.[1] ?? 0);
          pipeline(body, slice(range.start - from, range.end - range.start + 1), out, () => {});
        },
        (err: unknown) => out.destroy(notFound(err) ? new StoredFileMissing(key) : (err as Error)),
      );
    return out;
  };

  return {
    client,
    async put(key, data) {
      const Key = checkedKey(key);
      if (Buffer.isBuffer(data)) {
        await client.send(new PutObjectCommand({ Bucket, Key, Body: data, ContentLength: data.length }));
        return;
      }
      // A failing source or part aborts the multipart upload (leavePartsOnError false): nothing is left.
      const upload = new Upload({ client, params: { Bucket, Key, Body: data }, partSize: PART_BYTES, queueSize: QUEUE });
      const failed = new Promise<never>((_, reject) => data.once('error', reject));
      failed.catch(() => {});
      try {
        await Promise.race([upload.done(), failed]);
      } catch (err) {
        await upload.abort().catch(() => {});
        throw err;
      }
    },
    description: `s3://${Bucket}${c.endpoint ? ` (${c.endpoint})` : ''}`,
    async putIfAbsent(key, data) {
      try {
        await client.send(new PutObjectCommand({ Bucket, Key: checkedKey(key), Body: data, ContentLength: data.length, IfNoneMatch: '*' }));
        return true;
      } catch (err) {
        if (preconditionFailed(err)) return false;
        throw err;
      }
    },
    get: (key) => read(key),
    getRange: (key, start, end) => read(key, { start, end }),
    async size(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: checkedKey(key) }));
        return head.ContentLength ?? 0;
      } catch (err) {
        throw notFound(err) ? new StoredFileMissing(key) : err;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: checkedKey(key) }));
    },
    async *list() {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, ContinuationToken }));
        for (const o of page.Contents ?? []) if (o.Key) yield { key: o.Key, size: o.Size ?? 0 };
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    presignedUrl: (key, o) =>
      getSignedUrl(
        client,
        new GetObjectCommand({
          Bucket,
          Key: checkedKey(key),
          ResponseContentType: o.contentType,
          ResponseContentDisposition: o.fileName ? `attachment; filename*=UTF-8''${encodeURIComponent(o.fileName)}` : undefined,
        }),
        { expiresIn: o.seconds },
      ),
    close: () => client.destroy(),
  };
}
