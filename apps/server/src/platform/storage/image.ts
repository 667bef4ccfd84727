import { imageSize } from 'image-size';

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
