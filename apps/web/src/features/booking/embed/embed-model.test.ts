import { describe, expect, it } from 'vitest';
import { bookingPageUrl, checkOrigin, embedSnippet, plainIframe, sameOrigins } from './embed-model';

const D = 'https://app.divan.es';
const W = '8a1f8a52-6a43-4c59-9f1f-0a4f3c1b5e01';

describe('embed model', () => {
  it('addresses the index and a service as the public routes of spec §2', () => {
    expect(bookingPageUrl(D, W, { kind: 'index' })).toBe(`${D}/v1/reservations/${W}`);
    expect(bookingPageUrl(D, W, { kind: 'service', therapistId: 't1', serviceId: 's1' })).toBe(`${D}/v1/reservations/${W}/t1/s1`);
  });

  it('writes the snippets with the script from Diván, attributes escaped', () => {
    const url = bookingPageUrl(D, W, { kind: 'index' });
    expect(embedSnippet(D, url, 'iframe')).toBe(`<div data-divan-booking="${url}"></div>\n<script src="${D}/embed.js" async></script>`);
    expect(embedSnippet(D, url, 'button', 'Pide "cita" <ya>')).toContain(
      'data-mode="button" data-label="Pide &quot;cita&quot; &lt;ya&gt;"',
    );
    expect(plainIframe(url)).toContain(`src="${url}"`);
  });

  it('checks an origin with the server’s rule and message, and refuses repeats', () => {
    expect(checkOrigin(' https://www.consulta.es/ ', [])).toEqual({ ok: true, origin: 'https://www.consulta.es' });
    expect(checkOrigin('https://www.consulta.es/reservas', [])).toEqual({
      ok: false,
      message: 'Escribe solo el origen de tu web, como https://www.tuconsulta.es',
    });
    expect(checkOrigin('www.consulta.es', []).ok).toBe(false);
    expect(checkOrigin('', []).ok).toBe(false);
    expect(checkOrigin('https://www.consulta.es', ['https://www.consulta.es'])).toEqual({
      ok: false,
      message: 'Esa web ya está en la lista',
    });
    const ten = Array.from({ length: 10 }, (_, i) => `https://w${i}.es`);
    expect(checkOrigin('https://otra.es', ten)).toEqual({ ok: false, message: 'Puedes añadir hasta 10 webs' });
    expect(sameOrigins(['a'], ['a'])).toBe(true);
    expect(sameOrigins(['a'], ['b'])).toBe(false);
  });
});
