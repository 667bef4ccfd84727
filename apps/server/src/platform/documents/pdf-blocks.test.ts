import { describe, expect, it } from 'vitest';
import { pdfText, skipPdfChecks } from '../../test/pdf-tools';
import { breakable, keyValues, paragraph } from './pdf-blocks';
import { createDocument, finish, renderToBuffer } from './pdf-kit';

describe('text without breaks', () => {
  it('gets a zero-width break every 40 characters, and nothing else changes', () => {
    expect(breakable('x'.repeat(85))).toBe(`${'x'.repeat(40)}\u200b${'x'.repeat(40)}\u200b${'x'.repeat(5)}`);
    expect(breakable('Una nota corta, con palabras normales.')).toBe('Una nota corta, con palabras normales.');
    expect(breakable('x'.repeat(40))).toBe('x'.repeat(40));
  });

  it('a 100,000-letter word is laid out in a moment, not minutes (it blocked the database thread)', async () => {
    const doc = await createDocument({ title: 'Larga', author: 'Diván' });
    const started = Date.now();
    paragraph(doc, 'y'.repeat(100_000));
    keyValues(doc, [['Medicación', 'z'.repeat(20_000)]]);
    const pdf = await renderToBuffer(finish(doc));
    expect(Date.now() - started).toBeLessThan(8_000);
    if (!skipPdfChecks) expect(pdfText(pdf).replace(/\s/g, '')).toContain('y'.repeat(200));
  }, 30_000);
});
