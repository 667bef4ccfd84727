import QRCode from 'qrcode';
import { tagged } from './pdf-kit';

/** Pixels per QR module in the PNG: crisp at any printed size without being heavy. */
const SCALE = 8;
/** The quiet zone ISO/IEC 18004 asks for, in modules (part of the image). */
export const QR_MARGIN = 4;

/**
 * A QR code as a PNG (error correction M, as VERI*FACTU asks): black modules on white, a
 * 4-module quiet zone, SCALE pixels per module.
 */
export function qrPng(text: string): Promise<Buffer> {
  return QRCode.toBuffer(text, {
    type: 'png',
    errorCorrectionLevel: 'M',
    margin: QR_MARGIN,
    scale: SCALE,
    color: { dark: '#000000', light: '#ffffff' },
  });
}

/** Draws `text` as a QR code with its top-left corner at (x, y), `size` points square, quiet zone included. */
export async function drawQr(doc: PDFKit.PDFDocument, text: string, x: number, y: number, size: number, alt = 'Código QR') {
  const png = await qrPng(text);
  tagged(doc, 'Figure', () => doc.image(png, x, y, { width: size, height: size }), { alt });
}
