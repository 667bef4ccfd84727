import { describe, expect, it } from 'vitest';
import { crc32, deflateSync } from 'node:zlib';
import { jpeg4, png, webp4 } from '../../test/images';
import { imageIsWhole, sniffImage, uploadedImage } from './image';

describe('an image is read whole before it is kept', () => {
  it.each([
    ['PNG', png(16, 9)],
    ['JPEG', jpeg4()],
    ['WebP', webp4()],
  ])('a real %s passes', (_, data) => {
    const info = sniffImage(data)!;
    expect(info).not.toBeNull();
    expect(imageIsWhole(data, info.contentType)).toBe(true);
  });

  it.each([
    ['PNG', png(16, 9)],
    ['JPEG', jpeg4()],
    ['WebP', webp4()],
  ])('a %s cut short is refused, wherever it is cut (its header still reads)', (_, data) => {
    const type = sniffImage(data)!.contentType;
    for (const cut of [30, Math.floor(data.length / 2), data.length - 3])
      expect({ cut, whole: imageIsWhole(data.subarray(0, cut), type) }).toEqual({ cut, whole: false });
  });

  it('a PNG with one damaged byte in its pixels fails its CRC', () => {
    const data = Buffer.from(png(16, 9));
    data[data.length - 20] = data[data.length - 20]! ^ 0xff;
    expect(imageIsWhole(data, 'image/png')).toBe(false);
  });

  it('a PNG whose pixel data inflates to more than its header says (a small file, huge image) is refused', () => {
    const good = png(4, 4);
    const ihdrEnd = 8 + 12 + 13;
    const bomb = Buffer.concat([
      good.subarray(0, ihdrEnd),
      chunk('IDAT', deflateSync(Buffer.alloc(10_000_000))),
      chunk('IEND', Buffer.alloc(0)),
    ]);
    expect(imageIsWhole(bomb, 'image/png')).toBe(false);
  });
});

function chunk(type: string, body: Buffer) {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'latin1'), body])));
  return Buffer.concat([head, Buffer.from(type, 'latin1'), body, crc]);
}

describe('an uploaded picture or logo', () => {
  it('is one of the kept types, and a logo is square', () => {
    expect(uploadedImage(png(16, 9), { square: false })).toMatchObject({ contentType: 'image/png', width: 16, height: 9 });
    expect(uploadedImage(png(8, 8), { square: true })).toMatchObject({ width: 8, height: 8 });
    expect(() => uploadedImage(Buffer.from('not an image'), { square: false })).toThrow(
      expect.objectContaining({ code: 'invalid_type', statusCode: 415, message: 'El archivo debe ser una imagen PNG, JPEG o WebP.' }),
    );
    expect(() => uploadedImage(png(16, 9), { square: true })).toThrow(
      expect.objectContaining({
        code: 'invalid_argument',
        message: 'El logo debe ser cuadrado',
        fields: [{ path: 'file', message: 'El logo debe ser cuadrado' }],
      }),
    );
  });
});
