import type sanitizeHtmlType from 'sanitize-html';

// sanitize-html (with postcss) loads with the first history entry written, not at start-up.
let loaded: Promise<typeof sanitizeHtmlType> | undefined;
const sanitizer = () => (loaded ??= import('sanitize-html').then((m) => m.default));

/** The rich text a history entry may hold: what the editor produces, nothing executable. */
export async function sanitizeRichText(html: string): Promise<string> {
  const sanitizeHtml = await sanitizer();
  return sanitizeHtml(html, {
    allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'h1', 'h2', 'h3', 'h4', 'ul', 'ol', 'li', 'blockquote', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'a', 'hr'],
    allowedAttributes: { a: ['href'], td: ['colspan', 'rowspan'], th: ['colspan', 'rowspan'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    transformTags: { b: 'strong', i: 'em', a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer', target: '_blank' }) },
  }).trim();
}

export async function plainText(html: string): Promise<string> {
  const sanitizeHtml = await sanitizer();
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).replace(/\s+/g, ' ').trim();
}
