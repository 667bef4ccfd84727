import { describe, expect, it } from 'vitest';
import { JSDOM } from 'jsdom';
import { executableConstructs, XSS_VECTORS } from '../../test/xss-vectors';
import { plainText, sanitizeRichText } from './rich-text';

// The output is read as the browser will read it (innerHTML of a body), not as the sanitizer wrote it.
new JSDOM('');
const parsed = (html: string) => JSDOM.fragment(html);

describe('history HTML sanitizer against the OWASP XSS filter evasion vectors', () => {
  it.each(XSS_VECTORS)('$name: nothing executable survives', async ({ html }) => {
    const clean = await sanitizeRichText(html);
    expect(executableConstructs(parsed(clean)), clean).toEqual([]);
    // Once more through the sanitizer changes nothing: what is stored is stable.
    expect(await sanitizeRichText(clean)).toBe(clean);
  });

  it('the checker itself finds what the vectors hide, before sanitizing', () => {
    const harmless = XSS_VECTORS.filter((v) => executableConstructs(parsed(v.html)).length === 0).map((v) => v.name);
    // Only a comment, and <body>/<frameset>, which a browser drops when parsing into an element, look harmless unsanitized.
    expect(harmless).toEqual(['body onload with junk characters', 'body background', 'frameset', 'conditional comment']);
    expect(executableConstructs(parsed('<p onclick="x">a</p><a href="javascript:x">b</a><svg></svg>'))).toEqual([
      'p[onclick]',
      'a[href=javascript:x]',
      'a without noopener',
      '<svg>',
    ]);
  });
});

describe('what the editor writes is kept', () => {
  it('keeps text formatting, lists, headings, quotes and tables', async () => {
    const html =
      '<h2>Sesión</h2><p><strong>Motivo</strong>, <em>estado</em>, <u>u</u>, <s>s</s></p><ul><li>uno</li></ul><ol><li>dos</li></ol><blockquote>cita</blockquote><hr><table><thead><tr><th colspan="2">A</th></tr></thead><tbody><tr><td rowspan="1">1</td><td>2</td></tr></tbody></table>';
    expect(await sanitizeRichText(html)).toBe(html.replace('<hr>', '<hr />'));
    expect(await sanitizeRichText('<b>negrita</b> <i>cursiva</i>')).toBe('<strong>negrita</strong> <em>cursiva</em>');
  });

  it('keeps web and mail links, opening apart with no opener and no referrer', async () => {
    const attrs = 'rel="noopener noreferrer nofollow" target="_blank"';
    expect(await sanitizeRichText('<a href="https://www.cop.es/guia" target="_self" rel="opener">guía</a>')).toBe(
      `<a href="https://www.cop.es/guia" ${attrs}>guía</a>`,
    );
    expect(await sanitizeRichText('<a href="  HTTP://example.com/a?b=1&amp;c=2 ">x</a>')).toBe(
      `<a href="HTTP://example.com/a?b=1&amp;c=2" ${attrs}>x</a>`,
    );
    expect(await sanitizeRichText('<a href="mailto:ana@example.com">Ana</a>')).toBe(`<a href="mailto:ana@example.com" ${attrs}>Ana</a>`);
  });

  it('unwraps a link whose target is not an absolute web or mail address, keeping its text', async () => {
    for (const href of [
      'javascript:alert(1)',
      '/api/v1/files/x',
      'pacientes/1',
      '//evil.example',
      'ftp://example.com',
      'data:text/html,x',
      'tel:600000000',
      '',
    ])
      expect(await sanitizeRichText(`<p><a href="${href}">texto</a></p>`), href).toBe('<p>texto</p>');
    expect(await sanitizeRichText('<a>sin destino</a>')).toBe('sin destino');
  });

  it('plain text drops every tag and squeezes spaces', async () => {
    expect(await plainText('<h1>Informe <script>x()</script>de  <b>Ana</b></h1>\n<p>fin</p>')).toBe('Informe de Ana fin');
  });
});
