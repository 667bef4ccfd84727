import type sanitizeHtmlType from 'sanitize-html';

// sanitize-html (with postcss) loads with the first history entry written, not at start-up.
let loaded: Promise<typeof sanitizeHtmlType> | undefined;
const sanitizer = () => (loaded ??= import('sanitize-html').then((m) => m.default));

const ALLOWED_TAGS = [
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'h1',
  'h2',
  'h3',
  'h4',
  'ul',
  'ol',
  'li',
  'blockquote',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'a',
  'hr',
];
/** Absolute web and mail links only: no javascript:, data:, relative or protocol-relative targets. */
const SAFE_HREF = /^(?:https?:\/\/[^\s/]|mailto:[^\s])/i;

/**
 * The rich text a history entry may hold: what the editor produces, nothing executable. A link keeps
 * its href only when it is an absolute http(s) or mailto address (checked on the decoded value, then
 * again by sanitize-html's scheme list), opens apart and passes no referrer; a link without a safe
 * href is unwrapped to its text.
 */
export async function sanitizeRichText(html: string): Promise<string> {
  const sanitizeHtml = await sanitizer();
  return sanitizeHtml(html, {
    allowedTags: ALLOWED_TAGS,
    allowedAttributes: { a: ['href', 'rel', 'target'], td: ['colspan', 'rowspan'], th: ['colspan', 'rowspan'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesAppliedToAttributes: ['href'],
    allowProtocolRelative: false,
    transformTags: {
      b: 'strong',
      i: 'em',
      a: (_tag, attribs): { tagName: string; attribs: Record<string, string> } => {
        const href = (attribs.href ?? '').trim();
        // Not an allowed tag: sanitize-html drops it and keeps its text.
        if (!SAFE_HREF.test(href)) return { tagName: 'span', attribs: {} };
        return { tagName: 'a', attribs: { href, rel: 'noopener noreferrer nofollow', target: '_blank' } };
      },
    },
  }).trim();
}

export async function plainText(html: string): Promise<string> {
  const sanitizeHtml = await sanitizer();
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).replace(/\s+/g, ' ').trim();
}
