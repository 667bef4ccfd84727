import { describe, expect, it } from 'vitest';
import { SIGNATURE_DATA_URL_MAX, SIGNATURE_PNG_PREFIX, isValidSignatureImage, signatureImageSize } from './signature-image';

/** A real 1×1 PNG. */
const ONE_PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A PNG header of the given size, padded to `bytes`. */
function png(width: number, height: number, bytes = 64) {
  const b = new Uint8Array(bytes);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(b.buffer).setUint32(16, width);
  new DataView(b.buffer).setUint32(20, height);
  return SIGNATURE_PNG_PREFIX + Buffer.from(b).toString('base64');
}

describe('signature images', () => {
  it('accepts a PNG data URL and reads its size', () => {
    expect(signatureImageSize(SIGNATURE_PNG_PREFIX + ONE_PIXEL)).toEqual({ width: 1, height: 1 });
    expect(signatureImageSize(png(600, 200))).toEqual({ width: 600, height: 200 });
  });

  it('refuses what is not a PNG signature', () => {
    const jpeg = `data:image/jpeg;base64,${Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...new Array(40).fill(0)]).toString('base64')}`;
    const svg = `data:image/svg+xml;base64,${Buffer.from('<svg onload="alert(1)"></svg>'.padEnd(60)).toString('base64')}`;
    const gif = SIGNATURE_PNG_PREFIX + Buffer.from('GIF89a'.padEnd(60, '\0')).toString('base64');
    for (const bad of [
      '',
      'firma',
      SIGNATURE_PNG_PREFIX,
      `${SIGNATURE_PNG_PREFIX}no es base64!!`,
      jpeg,
      svg,
      gif,
      png(0, 10),
      png(10, 0),
      png(5000, 100),
      `${SIGNATURE_PNG_PREFIX + ONE_PIXEL} `,
    ])
      expect([bad.slice(0, 40), isValidSignatureImage(bad)]).toEqual([bad.slice(0, 40), false]);
  });

  it('refuses an image over the size limit', () => {
    expect(isValidSignatureImage(png(600, 200, 150_000))).toBe(true);
    expect(isValidSignatureImage(png(600, 200, 210_000))).toBe(false);
    expect(SIGNATURE_DATA_URL_MAX).toBeLessThan(300_000);
  });
});
