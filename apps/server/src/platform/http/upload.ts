import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { AppError } from '../errors';
import { guardUpload } from './cut-upload';

/**
 * The one file of an upload (field `file`) and the text fields around it. The whole form is read: a
 * second file is `too_many_files` (never silently dropped), a file in another field `unexpected_file`,
 * a file past `maxBytes` `file_too_large`, a form cut short or without a boundary a Spanish 400.
 */
export type Upload = { file?: { filename: string; data: Buffer }; fields: Record<string, string> };

type Part = MultipartFile | MultipartValue;

function partsOf(req: FastifyRequest, maxBytes: number): AsyncIterator<Part> {
  if (!req.isMultipart()) throw new AppError('invalid_type');
  return req.parts({ limits: { fileSize: maxBytes, files: 1 } })[Symbol.asyncIterator]() as AsyncIterator<Part>;
}

function fieldValue(part: MultipartValue): string {
  return typeof part.value === 'string' ? part.value : String(part.value);
}

/** The whole upload in memory (pictures, logos, spreadsheets and Word files: small, read at once). */
export async function readUpload(req: FastifyRequest, opts: { maxBytes: number }): Promise<Upload> {
  const parts = partsOf(req, opts.maxBytes);
  const out: Upload = { fields: {} };
  for (let next = await parts.next(); !next.done; next = await parts.next()) {
    const part = next.value;
    if (part.type === 'file') {
      if (part.fieldname !== 'file') throw new AppError('unexpected_file');
      if (out.file) throw new AppError('too_many_files');
      out.file = { filename: part.filename, data: await part.toBuffer() };
    } else out.fields[part.fieldname] = fieldValue(part);
  }
  return out;
}

/**
 * The upload's file as a stream (documents: up to tens of megabytes, never held in memory). The fields
 * sent before the file are read first; the stream ends only once the rest of the form has been read, and
 * fails with `too_many_files` if it holds another file, so a caller that stores what it reads keeps
 * nothing of a refused upload.
 */
export async function streamUpload(
  req: FastifyRequest,
  opts: { maxBytes: number },
): Promise<{ filename: string; stream: Readable; truncated: () => boolean; fields: Record<string, string> } | null> {
  const parts = partsOf(req, opts.maxBytes);
  const fields: Record<string, string> = {};
  for (let next = await parts.next(); !next.done; next = await parts.next()) {
    const part = next.value;
    if (part.type !== 'file') {
      fields[part.fieldname] = fieldValue(part);
      continue;
    }
    if (part.fieldname !== 'file') throw new AppError('unexpected_file');
    const rest = async () => {
      for (let more = await parts.next(); !more.done; more = await parts.next()) if (more.value.type === 'file') throw new AppError('too_many_files');
    };
    return { filename: part.filename, stream: guardUpload(req.raw, part.file, rest), truncated: () => part.file.truncated, fields };
  }
  return null;
}
