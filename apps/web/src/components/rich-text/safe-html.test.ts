// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
// The vectors and the checker are the server sanitizer's, so both layers answer to the same table.
import { executableConstructs, XSS_VECTORS } from '../../../../server/src/test/xss-vectors';
import { sanitizeHistoryHtml } from './safe-html';

/** The DOM the browser builds from the HTML we hand to dangerouslySetInnerHTML. */
const rendered = (html: string) => {
  const div = document.createElement('div');
  div.innerHTML = html;
  return div;
};

describe('history HTML sanitised again on render (DOMPurify)', () => {
  it.each(XSS_VECTORS)('$name: nothing executable reaches the page', ({ html }) => {
    const clean = sanitizeHistoryHtml(html);
    expect(executableConstructs(rendered(clean)), clean).toEqual([]);
  });

  it('the checker sees the raw vectors for what they are', () => {
    expect(executableConstructs(rendered('<img src=x onerror=alert(1)><a href="jav&#x09;ascript:x">y</a>'))).toEqual([
      '<img>',
      'img[src]',
      'img[onerror]',
      'a[href=jav\tascript:x]',
      'a without noopener',
    ]);
  });

  it('keeps what the server stores, links opening apart with no opener', () => {
    const stored =
      '<h2>Sesión</h2><p><strong>Motivo</strong> <em>x</em> <u>u</u> <s>s</s></p><ul><li>uno</li></ul><blockquote>cita</blockquote><hr><table><tbody><tr><td colspan="2">1</td></tr></tbody></table>' +
      '<p><a href="https://www.cop.es/" rel="noopener noreferrer nofollow" target="_blank">guía</a> <a href="mailto:ana@example.com" rel="noopener noreferrer nofollow" target="_blank">Ana</a></p>';
    expect(sanitizeHistoryHtml(stored)).toBe(stored);
  });

  it('forces the link rule on links that arrive without it, and strips unsafe targets', () => {
    const link = rendered(
      sanitizeHistoryHtml('<a href="https://example.com" target="_self" rel="opener" onclick="x()">x</a>'),
    ).querySelector('a')!;
    expect(Object.fromEntries(Array.from(link.attributes, (a) => [a.name, a.value]))).toEqual({
      href: 'https://example.com',
      rel: 'noopener noreferrer nofollow',
      target: '_blank',
    });
    for (const href of ['javascript:alert(1)', '/api/v1/files/x', '//evil.example', 'data:text/html,x', 'vbscript:x'])
      expect(sanitizeHistoryHtml(`<a href="${href}" target="_self">texto</a>`), href).toBe('<a>texto</a>');
  });
});
