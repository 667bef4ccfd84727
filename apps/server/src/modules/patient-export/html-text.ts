/** A paragraph of a history entry as plain text: a heading, a list item or a paragraph (lines split by <br>). */
export type Block = { kind: 'heading' | 'item' | 'paragraph'; text: string };

const BLOCKS = new Set(['p', 'div', 'blockquote', 'h1', 'h2', 'h3', 'h4', 'li', 'tr', 'ul', 'ol', 'table', 'thead', 'tbody', 'hr']);
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

const decode = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1)));
    return ENTITIES[e.toLowerCase()] ?? m;
  });

/**
 * The rich text of a history entry (already sanitised to the editor's tags) as blocks of plain
 * text, for the PDF and the `text` of the JSON export. Table cells are joined with " | ".
 */
export function htmlToBlocks(html: string): Block[] {
  const blocks: Block[] = [];
  let kind: Block['kind'] = 'paragraph';
  let buf = '';
  const flush = () => {
    const text = decode(buf)
      .split('\n')
      .map((l) =>
        l
          .replace(/\s+/g, ' ')
          .replace(/( \| )+$/, '')
          .trim(),
      )
      .filter(Boolean)
      .join('\n');
    if (text) blocks.push({ kind, text });
    buf = '';
    kind = 'paragraph';
  };
  for (const m of html.matchAll(/<(\/?)([a-z0-9]+)[^>]*>|[^<]+/gi)) {
    const tag = m[2]?.toLowerCase();
    if (!tag) buf += m[0];
    else if (tag === 'br') buf += '\n';
    else if ((tag === 'td' || tag === 'th') && m[1]) buf += ' | ';
    else if (BLOCKS.has(tag)) {
      // A paragraph inside a list item stays a list item.
      const keepItem = kind === 'item' && tag === 'p' && !buf.trim();
      if (!keepItem) flush();
      if (!m[1] && !keepItem) kind = tag.startsWith('h') && tag !== 'hr' ? 'heading' : tag === 'li' ? 'item' : 'paragraph';
    }
  }
  flush();
  return blocks;
}

export const htmlToText = (html: string) =>
  htmlToBlocks(html)
    .map((b) => (b.kind === 'item' ? `• ${b.text}` : b.text))
    .join('\n\n');
