import { describe, expect, it } from 'vitest';
import { hrefOf, parseRoute } from './router';

const id = '0b5c3a52-7f1e-4d8a-9c1b-2f3e4d5a6b7c';

describe('companion routes', () => {
  it('reads home, a connect link, a file and its section', () => {
    expect(parseRoute('/p')).toEqual({ name: 'home' });
    expect(parseRoute('/p/')).toEqual({ name: 'home' });
    expect(parseRoute('/p/connect/abc_DEF-123')).toEqual({ name: 'connect', token: 'abc_DEF-123' });
    expect(parseRoute(`/p/${id}`)).toEqual({ name: 'file', fileId: id, section: null });
    expect(parseRoute(`/p/${id}/chat`)).toEqual({ name: 'file', fileId: id, section: 'chat' });
    expect(parseRoute('/p/cuestionario/abc_DEF-123')).toEqual({ name: 'measure', token: 'abc_DEF-123' });
  });
  it('knows no other address', () => {
    for (const path of [
      '/patients',
      '/p/connect',
      '/p/cuestionario',
      '/p/cuestionario/a/b',
      '/p/not-a-file',
      `/p/${id}/nada`,
      `/p/${id}/chat/x`,
    ])
      expect(parseRoute(path)).toEqual({ name: 'not-found' });
  });
  it('writes the addresses back', () => {
    expect(hrefOf()).toBe('/p/');
    expect(hrefOf(id, 'chat')).toBe(`/p/${id}/chat`);
  });
});
