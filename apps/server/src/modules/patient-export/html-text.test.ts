import { describe, expect, it } from 'vitest';
import { htmlToBlocks, htmlToText } from './html-text';

describe('history rich text as plain text', () => {
  it('keeps headings, paragraphs, list items, line breaks and table rows apart', () => {
    const html =
      '<h2>Evolución</h2><p>Mejor <strong>ánimo</strong> &amp; sueño.<br>Sin crisis.</p><ul><li><p>Paseos</p></li><li>Diario</li></ul><table><tbody><tr><td>GAD-7</td><td>9</td></tr></tbody></table>';
    expect(htmlToBlocks(html)).toEqual([
      { kind: 'heading', text: 'Evolución' },
      { kind: 'paragraph', text: 'Mejor ánimo & sueño.\nSin crisis.' },
      { kind: 'item', text: 'Paseos' },
      { kind: 'item', text: 'Diario' },
      { kind: 'paragraph', text: 'GAD-7 | 9' },
    ]);
    expect(htmlToText('<p>Uno</p><ul><li>dos</li></ul>')).toBe('Uno\n\n• dos');
    expect(htmlToText('')).toBe('');
  });
});
