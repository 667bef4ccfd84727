import { TOKEN_EXPIRY_MARGIN_MS } from '@divan/core';

/** Reads `exp` (seconds) from a JWT without verifying it: the server verifies, we only schedule refreshes. */
export function jwtExpiresAt(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=');
    const json = JSON.parse(atob(padded)) as { exp?: unknown };
    return typeof json.exp === 'number' ? json.exp * 1000 : null;
  } catch {
    return null;
  }
}

/** Spec §5: a token counts as expired when it expires within 30 s. Unreadable tokens count as expired. */
export function isAccessTokenExpiring(token: string | null | undefined, now = Date.now()): boolean {
  if (!token) return true;
  const exp = jwtExpiresAt(token);
  return exp === null || exp - now <= TOKEN_EXPIRY_MARGIN_MS;
}
