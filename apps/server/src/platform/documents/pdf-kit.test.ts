import { describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import QRCode from 'qrcode';
import { png } from '../../test/images';
import { pdfImagePixels, pdfImages, pdfInfo, pdfPages, pdfText, skipPdfChecks } from '../../test/pdf-tools';
import { fontFiles } from './fonts';
import { header, heading, keyValues, paragraph, title } from './pdf-blocks';
import { createDocument, renderToBuffer } from './pdf-kit';
import { columnWidths, table } from './pdf-table';
import { drawQr, QR_MARGIN, qrPng } from './qr';

const here = dirname(fileURLToPath(import.meta.url));
const SPANISH = 'Ñ ç € — ü « » ·';
const OTHERS = 'l·l ĳ Ω';

describe('document kit', () => {
  it('finds the fonts shipped in apps/server/assets, from src/ and from a bundle in dist/', async () => {
    const assets = resolve(here, '../../../assets/fonts');
    expect(fontFiles()).toEqual({ regular: join(assets, 'DejaVuSans.ttf'), bold: join(assets, 'DejaVuSans-Bold.ttf') });
    // What `npm run build` makes: this module bundled into a file of apps/server/dist.
    const dist = resolve(here, '../../../dist');
    const out = join(dist, `fonts-check-${process.pid}.mjs`);
    mkdirSync(dist, { recursive: true });
    try {
      await build({
        entryPoints: [join(here, 'fonts.ts')],
        outfile: out,
        bundle: true,
        platform: 'node',
        format: 'esm',
        logLevel: 'silent',
      });
      const bundled = (await import(pathToFileURL(out).href)) as { fontFiles: typeof fontFiles };
      expect(bundled.fontFiles().regular).toBe(join(assets, 'DejaVuSans.ttf'));
    } finally {
      rmSync(out, { force: true });
    }
  });

  it('shares the table width between fixed and "*" columns', () => {
    expect(
      columnWidths(
        [
          { header: 'a', width: 100 },
          { header: 'b', width: '*' },
          { header: 'c', width: '2*' },
        ],
        400,
      ),
    ).toEqual([100, 100, 200]);
    expect(
      columnWidths(
        [
          { header: 'a', width: 1 },
          { header: 'b', width: 3 },
        ],
        400,
      ),
    ).toEqual([100, 300]);
  });

  it('makes a PDF/A-2b shaped file with only embedded fonts', async () => {
    const doc = await createDocument({ title: 'Prueba', author: 'Clínica Mar' });
    paragraph(doc, 'Hola');
    const pdf = await renderToBuffer(doc);
    const raw = pdf.toString('latin1');
    expect(raw.startsWith('%PDF-1.7')).toBe(true);
    expect(raw.trimEnd().endsWith('%%EOF')).toBe(true);
    expect(raw).toContain('/FontFile2');
    expect(raw).not.toMatch(/\/BaseFont \/(Helvetica|Times|Courier)/);
    expect(raw).toContain('/OutputIntents');
    expect(raw).toContain('/Lang (es-ES)');
    expect(raw).toContain('/DisplayDocTitle true');
  });
});

describe.skipIf(skipPdfChecks)('document kit, read back with poppler', () => {
  it('prints Spanish, Catalan and Greek characters as written', async () => {
    const doc = await createDocument({ title: `Muestra ${SPANISH}`, author: 'Begoña Çelik' });
    header(doc, { name: `Consulta ${SPANISH}`, lines: [`Línea ${OTHERS}`] });
    title(doc, `Título ${SPANISH}`);
    keyValues(doc, [[`Clave ${OTHERS}`, `Valor ${SPANISH}`]]);
    paragraph(doc, `Párrafo: ${SPANISH} y ${OTHERS}.`);
    table(doc, {
      columns: [
        { header: `Columna ${OTHERS}`, width: '*' },
        { header: 'Importe', width: 80, align: 'right' },
      ],
      rows: [[SPANISH, '1.234,56 €']],
    });
    const text = pdfText(await renderToBuffer(doc));
    for (const s of [
      `Consulta ${SPANISH}`,
      `Línea ${OTHERS}`,
      `Título ${SPANISH}`,
      `Clave ${OTHERS}`,
      `Valor ${SPANISH}`,
      `Párrafo: ${SPANISH} y ${OTHERS}.`,
      `Columna ${OTHERS}`,
      '1.234,56 €',
    ])
      expect(text).toContain(s);
    expect(text).not.toContain('?');
  });

  it('carries a long table over several pages, the header row on each, every page numbered', async () => {
    const doc = await createDocument({ title: 'Tabla larga', author: 'Diván', footer: 'Pie legal de la factura' });
    header(doc, { name: 'Clínica Mar', logo: png(32, 32), lines: ['NIF B12345678'] });
    heading(doc, 'Conceptos');
    const rows = Array.from({ length: 120 }, (_, i) => {
      const n = String(i + 1).padStart(3, '0');
      // Some rows wrap onto two lines.
      return [
        `Fila ${n}`,
        i % 9 === 4 ? `Sesión ${n} con un concepto largo que no cabe en una sola línea de la columna central` : `Sesión ${n}`,
        `${n},00 €`,
      ];
    });
    table(doc, {
      columns: [
        { header: 'Referencia', width: 80 },
        { header: 'Concepto', width: '*' },
        { header: 'Importe', width: 90, align: 'right' },
      ],
      rows,
    });
    const pdf = await renderToBuffer(doc);
    const pages = pdfPages(pdf);
    const n = pages.length;
    expect(n).toBeGreaterThanOrEqual(3);
    expect(pdfInfo(pdf).fields.Pages).toBe(String(n));
    pages.forEach((page, i) => {
      expect(page).toContain(`Página ${i + 1} de ${n}`);
      expect(page).toContain('Pie legal de la factura');
      for (const h of ['Referencia', 'Concepto', 'Importe']) expect(page).toContain(h);
    });
    // Every row once, whole, on one page, in order.
    let last = -1;
    for (const [ref, , amount] of rows) {
      const on = pages.map((p, i) => (p.includes(`${ref}\n`) ? i : -1)).filter((i) => i >= 0);
      expect(on, ref).toHaveLength(1);
      expect(pages[on[0]!]).toContain(amount);
      expect(on[0]!).toBeGreaterThanOrEqual(last);
      last = on[0]!;
    }
  });

  it('embeds a QR code whose modules are the ones of the text', async () => {
    const url =
      'https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?nif=B12345678&numserie=F-2026-0042&fecha=20-11-2026&importe=60.00';
    expect((await qrPng(url)).subarray(1, 4).toString()).toBe('PNG');
    const doc = await createDocument({ title: 'Factura', author: 'Clínica Mar' });
    await drawQr(doc, url, 60, 80, 100);
    const pdf = await renderToBuffer(doc);
    const images = pdfImages(pdf).filter((i) => i.type === 'image');
    expect(images).toHaveLength(1);
    expect(images[0]!.width).toBe(images[0]!.height);

    const qr = QRCode.create(url, { errorCorrectionLevel: 'M' }).modules;
    const image = pdfImagePixels(pdf).find((i) => i.channels === 3 && i.width === images[0]!.width)!;
    const scale = image.width / (qr.size + 2 * QR_MARGIN);
    expect(Number.isInteger(scale)).toBe(true);
    for (let r = 0; r < qr.size; r++)
      for (let c = 0; c < qr.size; c++) {
        const x = Math.floor((QR_MARGIN + c + 0.5) * scale);
        const y = Math.floor((QR_MARGIN + r + 0.5) * scale);
        const dark = image.data[(y * image.width + x) * 3]! < 128;
        expect(dark, `module ${r},${c}`).toBe(qr.get(r, c) === 1);
      }
  });

  it('writes title, author, subject, language and PDF/A identification', async () => {
    const doc = await createDocument({
      title: 'Factura F-1 · Begoña & «Ü» <prueba>',
      author: 'Clínica Mar',
      subject: 'Factura',
      createdAt: new Date('2026-11-20T10:00:00Z'),
    });
    paragraph(doc, 'Contenido');
    const { fields, xmp } = pdfInfo(await renderToBuffer(doc));
    expect(fields).toMatchObject({
      Title: 'Factura F-1 · Begoña & «Ü» <prueba>',
      Author: 'Clínica Mar',
      Subject: 'Factura',
      Creator: 'Diván',
      Tagged: 'yes',
      'PDF version': '1.7',
    });
    expect(fields.CreationDate).toContain('2026');
    expect(xmp).toContain('<pdfaid:part>2</pdfaid:part>');
    expect(xmp).toContain('<pdfaid:conformance>B</pdfaid:conformance>');
    // The XMP packet stays well-formed XML with any name in it.
    expect(xmp).toContain('Factura F-1 · Begoña &amp; «Ü» &lt;prueba&gt;');
  });
});
