import type { FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import { AppError } from '../errors';

/**
 * What the multipart parser throws, as the catalogue's errors: its limits by their names, anything else
 * it says of the form (no boundary, «Part terminated early», «Unexpected end of form», a malformed part
 * header, a field past its limit) is a form that did not arrive whole — the client's fault, never a 500.
 */
export function uploadError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  switch ((err as { code?: unknown } | null)?.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError('file_too_large');
    case 'FST_FILES_LIMIT':
      return new AppError('too_many_files');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError('invalid_type');
    default:
      return new AppError('upload_incomplete');
  }
}

/**
 * Whether the body has carried its closing boundary (`--boundary--`) so far. The parser ends a form cut
 * inside a part's headers, or right after a whole file, without a word; this is what tells it from a
 * complete one. Only the chunk edges are kept, never the body.
 */
export function watchClosingBoundary(req: FastifyRequest): () => boolean {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(req.headers['content-type'] ?? '');
  if (!boundary) return () => false;
  const closing = Buffer.from(`--${boundary[1] ?? boundary[2]}--`);
  let seen = false;
  let tail = Buffer.alloc(0);
  const onData = (chunk: Buffer) => {
    // A boundary split across two chunks is found in the last bytes of one and the first of the next.
    seen = chunk.includes(closing) || Buffer.concat([tail, chunk.subarray(0, closing.length)]).includes(closing);
    if (seen) req.raw.off('data', onData);
    else tail = Buffer.from(chunk.subarray(Math.max(0, chunk.length - closing.length)));
  };
  req.raw.on('data', onData);
  return () => seen;
}

/**
 * A multipart body cut before its closing boundary: busboy destroys the file stream without an error
 * and without 'close', so a pipeline reading it waits forever (the request never answers). The file is
 * read through the stream returned here instead: once the request's body has all arrived, a file that
 * was destroyed before its end fails it with `upload_incomplete`, whether the reader has started yet or not.
 */
export function guardUpload(raw: IncomingMessage, file: Readable, rest?: () => Promise<void>): Readable {
  const out = new PassThrough();
  // Whoever reads `out` sees its error (pipelines check a stream's errored state); if nobody reads it
  // any more (the request already failed), the error must not become an uncaught exception.
  out.on('error', () => {});
  // With `rest` (the remainder of the form), `out` ends only once it has been read without fault.
  file.pipe(out, { end: !rest });
  if (rest)
    file.once('end', () =>
      rest().then(
        () => out.end(),
        (err: unknown) => out.destroy(uploadError(err)),
      ),
    );
  const check = () =>
    setImmediate(() => {
      if (file.destroyed && !file.readableEnded && !out.destroyed) out.destroy(new AppError('upload_incomplete'));
    });
  if (raw.readableEnded) check();
  else raw.once('end', check).once('close', check);
  return out;
}
