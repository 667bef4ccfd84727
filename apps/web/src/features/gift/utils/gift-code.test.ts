import { describe, expect, it } from 'vitest';
import { formatGiftCode as coreFormat, normalizeGiftCode as coreNormalize } from '@divan/core';
import { formatGiftCode, monthsLabel, normalizeGiftCode } from './gift-code';

const CODE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

describe('gift code (the public page’s Zod-free copy)', () => {
  it('normalises and formats as core does', () => {
    for (const raw of [CODE, 'abcde-fghij-klmno-pqrst-uvwxy-z', ' ab cd-ef ', '', 'K7M2-QX9P']) {
      expect(normalizeGiftCode(raw)).toBe(coreNormalize(raw));
    }
    for (const code of [CODE, 'ABCDE', 'ABCDEF', 'A']) expect(formatGiftCode(code)).toBe(coreFormat(code));
    expect(formatGiftCode(CODE)).toBe('ABCDE-FGHIJ-KLMNO-PQRST-UVWXY-Z');
    expect(formatGiftCode('')).toBe('');
  });

  it('says months in Spanish', () => {
    expect(monthsLabel(1)).toBe('1 mes');
    expect(monthsLabel(12)).toBe('12 meses');
  });
});
