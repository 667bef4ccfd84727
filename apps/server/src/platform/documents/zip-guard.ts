/**
 * What a zip (an .xlsx, a .docx) says it unpacks to, read from its central directory before anything is
 * inflated: a few kilobytes that unpack to gigabytes (a zip bomb) are refused here, not discovered by
 * running out of memory. The limits are on the whole archive and on each entry's compression ratio
 * (ordinary office files stay well under 100; a sheet of zeros reaches 1,000).
 */
export type ZipLimits = { maxTotalBytes: number; maxRatio: number; maxEntries: number };
export const OFFICE_ZIP_LIMITS: ZipLimits = { maxTotalBytes: 50 * 1024 * 1024, maxRatio: 100, maxEntries: 2_000 };
/** Entries smaller than this are not judged by their ratio (a tiny XML of repeated tags compresses well). */
const RATIO_FLOOR = 1024 * 1024;

export type ZipVerdict = { ok: true; totalBytes: number } | { ok: false; reason: 'not_zip' | 'too_large' | 'ratio' | 'entries' };

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const ZIP64_MARK = 0xffffffff;

export function inspectZip(data: Buffer, limits: ZipLimits = OFFICE_ZIP_LIMITS): ZipVerdict {
  // The end record sits in the last 22 bytes plus at most a 64 KB comment.
  const from = Math.max(0, data.length - 22 - 0xffff);
  let end = -1;
  for (let i = data.length - 22; i >= from; i--)
    if (data.readUInt32LE(i) === EOCD) {
      end = i;
      break;
    }
  if (end < 0) return { ok: false, reason: 'not_zip' };
  const count = data.readUInt16LE(end + 10);
  const size = data.readUInt32LE(end + 12);
  const offset = data.readUInt32LE(end + 16);
  // A zip64 archive (counts or offsets past 32 bits) is far beyond any office file we take.
  if (count === 0xffff || size === ZIP64_MARK || offset === ZIP64_MARK) return { ok: false, reason: 'too_large' };
  if (count > limits.maxEntries) return { ok: false, reason: 'entries' };
  if (offset + size > end) return { ok: false, reason: 'not_zip' };
  let at = offset;
  let total = 0;
  for (let n = 0; n < count; n++) {
    if (at + 46 > end || data.readUInt32LE(at) !== CENTRAL) return { ok: false, reason: 'not_zip' };
    const compressed = data.readUInt32LE(at + 20);
    const uncompressed = data.readUInt32LE(at + 24);
    if (compressed === ZIP64_MARK || uncompressed === ZIP64_MARK) return { ok: false, reason: 'too_large' };
    total += uncompressed;
    if (total > limits.maxTotalBytes) return { ok: false, reason: 'too_large' };
    if (uncompressed > RATIO_FLOOR && uncompressed > limits.maxRatio * Math.max(compressed, 1)) return { ok: false, reason: 'ratio' };
    at += 46 + data.readUInt16LE(at + 28) + data.readUInt16LE(at + 30) + data.readUInt16LE(at + 32);
  }
  return { ok: true, totalBytes: total };
}
