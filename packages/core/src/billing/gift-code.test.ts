import { describe, expect, it } from 'vitest';
import { formatGiftCode, isGiftCode, normalizeGiftCode } from './gift-code';

describe('gift codes as people type them', () => {
  const code = 'OIBQ5P2QABCDEFGHIJKLMNOPQR';
  it('takes the printed groups, any case and spaces, and base32’s missing 0, 1 and 8 as O, I and B', () => {
    expect(isGiftCode(code)).toBe(true);
    expect(normalizeGiftCode(formatGiftCode(code))).toBe(code);
    expect(normalizeGiftCode(' oibq5-p2qab cdefg-hijkl-mnopq-r ')).toBe(code);
    expect(normalizeGiftCode('018Q5-P2QAB-CDEFG-HIJKL-MN0PQ-R')).toBe(code);
    // Still not a code: other characters, or the wrong length.
    expect(isGiftCode(normalizeGiftCode('9IBQ5P2QABCDEFGHIJKLMNOPQR'))).toBe(false);
    expect(isGiftCode(normalizeGiftCode(code.slice(1)))).toBe(false);
  });
});
