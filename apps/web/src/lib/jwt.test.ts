import { describe, expect, it } from 'vitest';
import { isAccessTokenExpiring, jwtExpiresAt } from './jwt';

const tokenExpiringAt = (ms: number) => `h.${Buffer.from(JSON.stringify({ exp: Math.floor(ms / 1000) })).toString('base64url')}.s`;

describe('access token expiry', () => {
  const now = 1_700_000_000_000;
  it('reads exp from the payload', () => {
    expect(jwtExpiresAt(tokenExpiringAt(now))).toBe(now);
  });
  it('counts a token expiring within 30 s as expired', () => {
    expect(isAccessTokenExpiring(tokenExpiringAt(now + 29_000), now)).toBe(true);
    expect(isAccessTokenExpiring(tokenExpiringAt(now + 60_000), now)).toBe(false);
  });
  it('counts missing or unreadable tokens as expired', () => {
    expect(isAccessTokenExpiring(null, now)).toBe(true);
    expect(isAccessTokenExpiring('not-a-jwt', now)).toBe(true);
  });
});
