import { describe, expect, it } from 'vitest';
import { companionReturn } from './companion-return';

describe('companionReturn', () => {
  const file = '3f2b8c1e-9a4d-4e7b-8c1a-2b3c4d5e6f70';
  it('accepts the companion’s consents page of a file', () => {
    expect(companionReturn(`?volver=${encodeURIComponent(`/p/${file}/consentimientos`)}`)).toBe(`/p/${file}/consentimientos`);
  });
  it('refuses anything else: other sites, other pages, tricks', () => {
    for (const v of [
      'https://malo.es/p/x',
      `//malo.es/p/${file}/consentimientos`,
      `/p/${file}/facturas`,
      `/p/${file}/consentimientos?x=1`,
      `/p/../admin/consentimientos`,
      `javascript:alert(1)`,
      '',
    ])
      expect(companionReturn(`?volver=${encodeURIComponent(v)}`)).toBeNull();
    expect(companionReturn('')).toBeNull();
  });
});
