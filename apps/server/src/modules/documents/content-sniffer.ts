import { Transform, type TransformCallback } from 'node:stream';
import { TextDecoder } from 'node:util';
import { DOCUMENT_MAX_MB, type DocumentType, errorMessage, fileErrorMessages, patientErrorMessages } from '@divan/core';
import { AppError } from '../../platform/errors';

const HEAD_BYTES = 512;
const ZIP_TYPES: Record<string, DocumentType> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  odt: 'application/vnd.oasis.opendocument.text',
};

export const tooLarge = () =>
  new AppError('document_too_large', undefined, errorMessage('document_too_large').replace('{limit}', String(DOCUMENT_MAX_MB)));
const invalidType = () => new AppError('invalid_type', undefined, patientErrorMessages.documentType);

/**
 * The type of a file from its first bytes, never from its name or declared type. Office files are
 * zip containers: the extension only chooses between the zip-based types we accept.
 */
export function sniffHead(head: Buffer, filename: string): DocumentType | 'text' | null {
  const ascii = head.subarray(0, 16).toString('latin1');
  if (ascii.startsWith('%PDF-')) return 'application/pdf';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') return 'image/webp';
  if (ascii.startsWith('GIF87a') || ascii.startsWith('GIF89a')) return 'image/gif';
  if (ascii.startsWith('PK\u0003\u0004')) {
    // An OpenDocument file starts with its uncompressed `mimetype` entry.
    if (head.toString('latin1').includes('mimetypeapplication/vnd.oasis.opendocument.text')) return ZIP_TYPES.odt!;
    return ZIP_TYPES[filename.split('.').pop()?.toLowerCase() ?? ''] ?? null;
  }
  return 'text';
}

/**
 * Passes a file through while checking it: its type from the head, plain text as valid UTF-8
 * without NUL all the way, and its size against the limit. Fails the stream (so the partial
 * upload is removed) as soon as one check does not hold.
 */
export class DocumentSniffer extends Transform {
  contentType: DocumentType | undefined;
  size = 0;
  private head: Buffer[] = [];
  private headLength = 0;
  private text: TextDecoder | undefined;

  constructor(
    private readonly filename: string,
    private readonly maxBytes: number,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback) {
    this.size += chunk.length;
    if (this.size > this.maxBytes) return cb(tooLarge());
    try {
      if (this.contentType) {
        if (this.text) this.checkText(chunk);
        return cb(null, chunk);
      }
      this.head.push(chunk);
      this.headLength += chunk.length;
      if (this.headLength >= HEAD_BYTES) this.decide(cb);
      else cb();
    } catch (err) {
      cb(err as Error);
    }
  }

  override _flush(cb: TransformCallback) {
    if (this.size === 0) return cb(new AppError('invalid_type', undefined, fileErrorMessages.empty));
    if (!this.contentType) {
      let failed: Error | null | undefined;
      this.decide((err, data) => {
        failed = err;
        if (!err && data) this.push(data);
      });
      if (failed) return cb(failed);
    }
    try {
      // A multi-byte character cut off at the end is not valid text.
      this.text?.decode();
    } catch {
      return cb(invalidType());
    }
    cb();
  }

  private decide(cb: TransformCallback) {
    const head = Buffer.concat(this.head);
    this.head = [];
    const kind = sniffHead(head, this.filename);
    if (!kind) return cb(invalidType());
    if (kind === 'text') {
      this.contentType = 'text/plain; charset=utf-8';
      this.text = new TextDecoder('utf-8', { fatal: true });
      try {
        this.checkText(head);
      } catch {
        return cb(invalidType());
      }
    } else this.contentType = kind;
    cb(null, head);
  }

  private checkText(chunk: Buffer) {
    if (chunk.includes(0)) throw invalidType();
    try {
      this.text!.decode(chunk, { stream: true });
    } catch {
      throw invalidType();
    }
  }
}
