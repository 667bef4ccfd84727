/**
 * A drawn signature as the browser's signature pad exports it: a PNG data URL. Only PNG (an SVG could
 * carry script), of a signature's size, with a well-formed header. The therapist's signature on a
 * template is checked with it, and so is each signer's on the signing page.
 */
export const SIGNATURE_PNG_PREFIX = 'data:image/png;base64,';
/** The most a signature image may weigh, decoded (a pad's PNG is usually 5–40 KB). */
export const SIGNATURE_MAX_BYTES = 200 * 1024;
/** The longest side of a signature image, in pixels (a pad on a large screen at 3× density). */
export const SIGNATURE_MAX_SIDE = 4000;
/** The longest data URL a request may carry for one signature. */
export const SIGNATURE_DATA_URL_MAX = SIGNATURE_PNG_PREFIX.length + Math.ceil(SIGNATURE_MAX_BYTES / 3) * 4;

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function decodedLength(b64: string) {
  const padding = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return (b64.length / 4) * 3 - padding;
}

/** The first bytes of a base64 text (whole groups of 4 characters). */
function headBytes(b64: string, bytes: number): number[] {
  const chunk = b64.slice(0, Math.ceil(bytes / 3) * 4);
  return [...atob(chunk)].map((c) => c.charCodeAt(0)).slice(0, bytes);
}

const u32 = (b: number[], at: number) => ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!;

/** The image's width and height when `dataUrl` is a PNG signature Diván accepts; null otherwise. */
export function signatureImageSize(dataUrl: string): { width: number; height: number } | null {
  if (typeof dataUrl !== 'string' || !dataUrl.startsWith(SIGNATURE_PNG_PREFIX) || dataUrl.length > SIGNATURE_DATA_URL_MAX) return null;
  const b64 = dataUrl.slice(SIGNATURE_PNG_PREFIX.length);
  if (b64.length < 44 || b64.length % 4 !== 0 || !BASE64.test(b64)) return null;
  if (decodedLength(b64) > SIGNATURE_MAX_BYTES) return null;
  // Signature (8 bytes), then the IHDR chunk: length 13, type, width and height.
  const head = headBytes(b64, 24);
  if (PNG_MAGIC.some((byte, i) => head[i] !== byte)) return null;
  if (u32(head, 8) !== 13 || String.fromCharCode(...head.slice(12, 16)) !== 'IHDR') return null;
  const width = u32(head, 16);
  const height = u32(head, 20);
  if (width < 1 || height < 1 || width > SIGNATURE_MAX_SIDE || height > SIGNATURE_MAX_SIDE) return null;
  return { width, height };
}

export const isValidSignatureImage = (dataUrl: string) => signatureImageSize(dataUrl) !== null;
