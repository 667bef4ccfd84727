import { TOKEN_EXPIRY_MARGIN_MS } from '@divan/core';

function claimsOf(token: string): { exp?: unknown; enrol?: unknown } | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=');
    return JSON.parse(atob(padded)) as { exp?: unknown; enrol?: unknown };
  } catch {
    return null;
  }
}

/** Reads `exp` (seconds) from a JWT without verifying it: the server verifies, we only schedule refreshes. */
export function jwtExpiresAt(token: string): number | null {
  const exp = claimsOf(token)?.exp;
  return typeof exp === 'number' ? exp * 1000 : null;
}

/** A workspace requires a second factor this user has not set up (issue 32): the app shows only the enrolment. */
export function mustEnrolSecondFactor(token: string | null | undefined): boolean {
  return !!token && claimsOf(token)?.enrol === true;
}

/** Spec §5: a token counts as expired when it expires within 30 s. Unreadable tokens count as expired. */
export function isAccessTokenExpiring(token: string | null | undefined, now = Date.now()): boolean {
  if (!token) return true;
  const exp = jwtExpiresAt(token);
  return exp === null || exp - now <= TOKEN_EXPIRY_MARGIN_MS;
}
