import { describe, expect, it } from 'vitest';
import { isReferralCode, normalizeReferralCode, REFERRAL_CODE_ALPHABET, REFERRAL_CODE_LENGTH, REFERRAL_FRIEND_DAYS } from '@divan/core';
import { FRIEND_DAYS, isCode, normalizeCode } from './referral-code';

describe('the sign-up page’s copy of the referral code rules', () => {
  it('agrees with core’s', () => {
    expect(FRIEND_DAYS).toBe(REFERRAL_FRIEND_DAYS);
    for (const raw of ['k7m2-qx9p', ' K7M2 QX9P ', 'abc', 'k7m2–qx9p', 'K7M2QX9P0', '', 'ÑANDÚ123'])
      expect(normalizeCode(raw)).toBe(normalizeReferralCode(raw));
    const samples = ['K7M2QX9P', 'K7M2QX9', 'K7M2QX9PP', 'K7M2QX9O', 'K7M2QX91', 'K7M2QX9L', 'k7m2qx9p', ''];
    for (const c of REFERRAL_CODE_ALPHABET) samples.push(c.repeat(REFERRAL_CODE_LENGTH));
    for (const c of 'O01IL') samples.push(c.repeat(REFERRAL_CODE_LENGTH));
    for (const code of samples) expect(isCode(code), code).toBe(isReferralCode(code));
  });
});
