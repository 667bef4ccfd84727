import { createHash, createHmac, hkdfSync, randomBytes, randomInt } from 'node:crypto';
import { createSigner, createVerifier } from 'fast-jwt';
import { ACCESS_TOKEN_TTL_S } from '@divan/core';

/** Who signs in (spec §7): therapists and workspace members, or patients (their own account, issue 15). */
export type Realm = 'therapists' | 'patients';
/**
 * `enrol`: a workspace of the user requires a second factor they have not set up (issue 32) — the token opens only the
 * routes that say `secondFactorExempt` (enrolment, sign-out) until a refresh after enrolling drops it.
 */
export type AccessClaims = { sub: string; sid: string; realm: Realm; enrol?: true };

/**
 * Keys for access tokens (HS256) and secret hashing, derived from APP_SECRET for their one use.
 * `revoked`: ended device sessions (RevokedSessions), whose access tokens are refused before they expire.
 */
export function createTokenService(appSecret: string, revoked?: { has(sessionId: string): boolean }) {
  const derive = (info: string) => Buffer.from(hkdfSync('sha256', appSecret, 'divan', info, 32));
  const jwtKey = derive('access-token');
  const hmacKey = derive('challenge-secret');
  const sign = createSigner({ key: jwtKey, algorithm: 'HS256', expiresIn: ACCESS_TOKEN_TTL_S * 1000, iss: 'divan' });
  const verify = createVerifier({ key: jwtKey, algorithms: ['HS256'], allowedIss: 'divan', cache: 1000 });
  return {
    signAccess: (claims: AccessClaims): string => sign({ ...claims }),
    /**
     * The claims of a valid token of a live session of `realm`, or null for anything else: a patient's
     * token is no therapist's, and the other way round.
     */
    verifyAccess(token: string, realm: Realm = 'therapists'): AccessClaims | null {
      try {
        const p = verify(token) as Partial<AccessClaims>;
        if (typeof p.sub !== 'string' || typeof p.sid !== 'string' || p.realm !== realm) return null;
        if (revoked?.has(p.sid)) return null;
        return { sub: p.sub, sid: p.sid, realm: p.realm, ...(p.enrol === true ? { enrol: true } : {}) };
      } catch {
        return null;
      }
    },
    /** Keyed hash of a code or link token, so a database leak reveals no usable secret. */
    hashSecret: (value: string) => createHmac('sha256', hmacKey).update(value).digest('base64url'),
  };
}
export type TokenService = ReturnType<typeof createTokenService>;

export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');
export const sixDigitCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');
export const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

export function bearerOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const [scheme, value] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && value ? value.trim() : undefined;
}
