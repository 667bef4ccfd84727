import { imageSize } from 'image-size';
import { crc32, inflateSync } from 'node:zlib';
import { fileErrorMessages } from '@divan/core';
import { AppError } from '../errors';

export type ImageInfo = { contentType: 'image/png' | 'image/jpeg' | 'image/webp'; width: number; height: number };

/** The type is read from the bytes, never from the file name or the declared type. */
export function sniffImage(data: Buffer): ImageInfo | null {
  let contentType: ImageInfo['contentType'];
  if (data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) contentType = 'image/png';
  else if (data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) contentType = 'image/jpeg';
  else if (data.subarray(0, 4).toString('latin1') === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP')
    contentType = 'image/webp';
  else return null;
  try {
    const { width, height } = imageSize(data);
    if (!width || !height) return null;
    return { contentType, width, height };
  } catch {
    return null;
  }
}

/** An uploaded picture or logo as kept: one of the three types (read from the bytes) and, for a logo, square. */
export function uploadedImage(data: Buffer, { square }: { square: boolean }): ImageInfo {
  const image = sniffImage(data);
  if (!image) throw new AppError('invalid_type', undefined, fileErrorMessages.imageType);
  if (square && image.width !== image.height)
    throw new AppError('invalid_argument', [{ path: 'file', message: fileErrorMessages.logoNotSquare }], fileErrorMessages.logoNotSquare);
  return image;
}

/** Raw pixels a kept image may inflate to (a 4096×4096 RGBA picture): past it, a small file is a bomb. */
const MAX_RAW_BYTES = 64 * 1024 * 1024;

/**
 * The whole file read, not only its header: a picture cut short (its header intact) or with a damaged
 * chunk is refused. PNG: every chunk's CRC, IHDR first, IEND last, and the pixel data inflated to exactly
 * the size its header promises. JPEG: well-formed segments up to the scan, a frame header, and the end
 * marker after the scan. WebP: the RIFF size and every chunk within the file, with a VP8/VP8L bitstream.
 */
export function imageIsWhole(data: Buffer, contentType: ImageInfo['contentType']): boolean {
  try {
    if (contentType === 'image/png') return pngIsWhole(data);
    if (contentType === 'image/jpeg') return jpegIsWhole(data);
    return webpIsWhole(data);
  } catch {
    return false;
  }
}

function pngIsWhole(data: Buffer): boolean {
  let at = 8;
  let header: { width: number; height: number; depth: number; colour: number; interlace: number } | undefined;
  const idat: Buffer[] = [];
  let ended = false;
  while (at + 12 <= data.length) {
    const length = data.readUInt32BE(at);
    const type = data.toString('latin1', at + 4, at + 8);
    const end = at + 8 + length;
    if (end + 4 > data.length) return false;
    if (crc32(data.subarray(at + 4, end)) !== data.readUInt32BE(end)) return false;
    const body = data.subarray(at + 8, end);
    if (!header && type !== 'IHDR') return false;
    if (type === 'IHDR') {
      if (header || length !== 13) return false;
      header = { width: body.readUInt32BE(0), height: body.readUInt32BE(4), depth: body[8]!, colour: body[9]!, interlace: body[12]! };
    } else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') {
      ended = true;
      break;
    }
    at = end + 4;
  }
  if (!header || !ended || !idat.length) return false;
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[header.colour];
  if (!channels || !header.width || !header.height) return false;
  const bitsPerPixel = channels * header.depth;
  const rowBytes = (w: number) => (w ? 1 + Math.ceil((w * bitsPerPixel) / 8) : 0);
  const passes = header.interlace
    ? [
        [0, 0, 8, 8],
        [4, 0, 8, 8],
        [0, 4, 4, 8],
        [2, 0, 4, 4],
        [0, 2, 2, 4],
        [1, 0, 2, 2],
        [0, 1, 1, 2],
      ]
    : [[0, 0, 1, 1]];
  let expected = 0;
  for (const [x0, y0, dx, dy] of passes) {
    const w = Math.ceil((header.width - x0!) / dx!);
    const h = Math.ceil((header.height - y0!) / dy!);
    if (w > 0 && h > 0) expected += rowBytes(w) * h;
  }
  if (expected > MAX_RAW_BYTES) return false;
  const raw = inflateSync(Buffer.concat(idat), { maxOutputLength: expected + 1 });
  return raw.length === expected;
}

function jpegIsWhole(data: Buffer): boolean {
  if (data[0] !== 0xff || data[1] !== 0xd8) return false;
  let at = 2;
  let frame = false;
  while (at + 4 <= data.length) {
    if (data[at] !== 0xff) return false;
    const marker = data[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0xd9 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) return false;
    const length = data.readUInt16BE(at + 2);
    if (length < 2 || at + 2 + length > data.length) return false;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc && length >= 8) {
      frame = data.readUInt16BE(at + 5) > 0 && data.readUInt16BE(at + 7) > 0;
    }
    if (marker === 0xda) {
      if (!frame) return false;
      // The entropy-coded scans follow; the file must still hold its end marker after them.
      const eoi = data.lastIndexOf(Buffer.from([0xff, 0xd9]));
      return eoi > at + 2 + length;
    }
    at += 2 + length;
  }
  return false;
}

function webpIsWhole(data: Buffer): boolean {
  const size = data.readUInt32LE(4);
  if (size + 8 > data.length || size < 12) return false;
  let at = 12;
  let bitstream = false;
  while (at + 8 <= size + 8) {
    const type = data.toString('latin1', at, at + 4);
    const length = data.readUInt32LE(at + 4);
    const end = at + 8 + length;
    if (end > size + 8) return false;
    if (type === 'VP8 ') bitstream = length >= 10 && data[at + 11] === 0x9d && data[at + 12] === 0x01 && data[at + 13] === 0x2a;
    else if (type === 'VP8L') bitstream = length >= 5 && data[at + 8] === 0x2f;
    at = end + (length % 2);
  }
  return bitstream && at >= size + 8 - 1;
}
