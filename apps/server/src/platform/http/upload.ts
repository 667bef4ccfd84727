import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { AppError } from '../errors';
import { guardUpload, uploadError, watchClosingBoundary } from './cut-upload';

/**
 * The one file of an upload (field `file`) and the text fields around it. The whole form is read: a
 * second file is `too_many_files` (never silently dropped), a file in another field `unexpected_file`,
 * a file past `maxBytes` `file_too_large`, a form cut short (no closing boundary: a phone that lost its
 * connection) or malformed `upload_incomplete` — whatever the parser says, every upload route answers
 * the same Spanish 4xx from here, and its caller gets no file to keep.
 */
export type Upload = { file?: { filename: string; data: Buffer }; fields: Record<string, string> };

type Part = MultipartFile | MultipartValue;
type Form = { next(): Promise<IteratorResult<Part>>; ended(): boolean };

function formOf(req: FastifyRequest, maxBytes: number): Form {
  if (!req.isMultipart()) throw new AppError('invalid_type');
  const parts = req.parts({ limits: { fileSize: maxBytes, files: 1 } })[Symbol.asyncIterator]() as AsyncIterator<Part>;
  // Watched from now: the parser is piped in this same tick, so both see every chunk.
  const ended = watchClosingBoundary(req);
  return {
    next: () => parts.next().catch((err: unknown) => Promise.reject(uploadError(err))),
    ended,
  };
}

function fieldValue(part: MultipartValue): string {
  return typeof part.value === 'string' ? part.value : String(part.value);
}

/** The form read to its end: the parser found no fault, and the closing boundary came. */
function assertComplete(form: Form) {
  if (!form.ended()) throw new AppError('upload_incomplete');
}

/**
 * A file's bytes, refused as soon as it passes its limit: the parser would otherwise read (and drop) the
 * rest of the part before saying so, and a client waiting for the answer would wait for nothing.
 */
async function bytesOf(part: MultipartFile): Promise<Buffer> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of part.file) {
      if (part.file.truncated) throw new AppError('file_too_large');
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    throw uploadError(err);
  }
  if (part.file.truncated) throw new AppError('file_too_large');
  return Buffer.concat(chunks);
}

/** The whole upload in memory (pictures, logos, spreadsheets and Word files: small, read at once). */
export async function readUpload(req: FastifyRequest, opts: { maxBytes: number }): Promise<Upload> {
  const form = formOf(req, opts.maxBytes);
  const out: Upload = { fields: {} };
  for (let next = await form.next(); !next.done; next = await form.next()) {
    const part = next.value;
    if (part.type === 'file') {
      if (part.fieldname !== 'file') throw new AppError('unexpected_file');
      if (out.file) throw new AppError('too_many_files');
      out.file = { filename: part.filename, data: await bytesOf(part) };
    } else out.fields[part.fieldname] = fieldValue(part);
  }
  assertComplete(form);
  return out;
}

/**
 * The upload's file as a stream (documents: up to tens of megabytes, never held in memory). The fields
 * sent before the file are read first; the stream ends only once the rest of the form has been read, and
 * fails with `too_many_files` if it holds another file or `upload_incomplete` if the form was cut, so a
 * caller that stores what it reads keeps nothing of a refused upload (the storage removes its half-written file).
 */
export async function streamUpload(
  req: FastifyRequest,
  opts: { maxBytes: number },
): Promise<{ filename: string; stream: Readable; truncated: () => boolean; fields: Record<string, string> } | null> {
  const form = formOf(req, opts.maxBytes);
  const fields: Record<string, string> = {};
  for (let next = await form.next(); !next.done; next = await form.next()) {
    const part = next.value;
    if (part.type !== 'file') {
      fields[part.fieldname] = fieldValue(part);
      continue;
    }
    if (part.fieldname !== 'file') throw new AppError('unexpected_file');
    const rest = async () => {
      for (let more = await form.next(); !more.done; more = await form.next())
        if (more.value.type === 'file') throw new AppError('too_many_files');
      assertComplete(form);
    };
    return { filename: part.filename, stream: guardUpload(req.raw, part.file, rest), truncated: () => part.file.truncated, fields };
  }
  assertComplete(form);
  return null;
}
