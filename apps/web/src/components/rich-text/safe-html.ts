import DOMPurify from 'dompurify';

/**
 * History HTML, sanitised once more right before it is rendered with dangerouslySetInnerHTML. The
 * server keeps only this markup when an entry is saved; the browser checks again, so a row written
 * some other way (an old version, a restored backup, a bug) still cannot run anything here. The
 * lists are the server's (`rich-text.ts`): the editor's formatting, and links to an absolute http(s)
 * or mailto address that open apart with no opener and no referrer.
 */
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
const ALLOWED_ATTR = ['href', 'rel', 'target', 'colspan', 'rowspan'];
const SAFE_HREF = /^(?:https?:\/\/[^\s/]|mailto:\S)/i;

// An instance of its own, so its hook touches no other use of DOMPurify.
const purifier = DOMPurify(window);
purifier.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName !== 'A') return;
  if (node.hasAttribute('href')) {
    node.setAttribute('rel', 'noopener noreferrer nofollow');
    node.setAttribute('target', '_blank');
  } else {
    node.removeAttribute('rel');
    node.removeAttribute('target');
  }
});

export function sanitizeHistoryHtml(html: string): string {
  return purifier.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    // DOMPurify checks every attribute not named URI-safe against this pattern: only href is a URL here.
    ALLOWED_URI_REGEXP: SAFE_HREF,
    ADD_URI_SAFE_ATTR: ['colspan', 'rowspan', 'rel', 'target'],
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    ALLOW_UNKNOWN_PROTOCOLS: false,
    RETURN_TRUSTED_TYPE: false,
  });
}
