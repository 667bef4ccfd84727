import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';

/**
 * A multipart body cut before its closing boundary: busboy destroys the file stream without an error
 * and without 'close', so a pipeline reading it waits forever (the request never answers). The file is
 * read through the stream returned here instead: once the request's body has all arrived, a file that
 * was destroyed before its end fails it with busboy's own message (a Spanish 400 from the error handler),
 * whether the reader has started yet or not.
 */
export function guardUpload(raw: IncomingMessage, file: Readable, rest?: () => Promise<void>): Readable {
  const out = new PassThrough();
  // Whoever reads `out` sees its error (pipelines check a stream's errored state); if nobody reads it
  // any more (the request already failed), the error must not become an uncaught exception.
  out.on('error', () => {});
  // With `rest` (the remainder of the form), `out` ends only once it has been read without fault.
  file.pipe(out, { end: !rest });
  if (rest) file.once('end', () => rest().then(() => out.end(), (err: Error) => out.destroy(err)));
  const check = () =>
    setImmediate(() => {
      if (file.destroyed && !file.readableEnded && !out.destroyed) out.destroy(new Error('Unexpected end of form'));
    });
  if (raw.readableEnded) check();
  else raw.once('end', check).once('close', check);
  return out;
}
