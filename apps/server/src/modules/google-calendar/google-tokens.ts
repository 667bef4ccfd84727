import type { Cipher } from '../../platform/crypto/cipher';
import type { Db } from '../../platform/db/database';
import { GoogleApiError } from './google-api';
import { googleCalendarRepository } from './google-calendar.repository';
import type { GoogleConnectionRow } from './google-calendar.tables';
import type { GoogleOAuth } from './google-oauth';

/** The additional data bound to each encrypted token: a token copied to another row does not decrypt there. */
const aadOf = (connectionId: string, kind: 'refresh' | 'access') => `google-calendar:${kind}:${connectionId}`;

/** A connection whose grant Google no longer accepts (revoked from the Google account). */
export class GoogleGrantRevoked extends Error {}

/**
 * The connection's tokens, encrypted at rest with the workspace's data key like clinical text: a valid
 * access token for a call (refreshed a minute before it expires), refreshed once more when Google
 * answers 401 anyway.
 */
export class GoogleTokens {
  constructor(private readonly d: { db: Db; cipher: Cipher; oauth: () => GoogleOAuth; clock: () => Date }) {}

  /** The encrypted columns of a new grant for `connectionId`. */
  async seal(workspaceId: string, connectionId: string, t: { refreshToken: string; accessToken: string }) {
    return {
      refreshToken: await this.d.cipher.encryptText(workspaceId, t.refreshToken, aadOf(connectionId, 'refresh')),
      accessToken: await this.d.cipher.encryptText(workspaceId, t.accessToken, aadOf(connectionId, 'access')),
    };
  }

  refreshTokenOf = (c: GoogleConnectionRow) => this.d.cipher.decryptText(c.workspaceId, c.refreshToken, aadOf(c.id, 'refresh'));

  /** An access token valid for a minute at least. */
  async accessOf(c: GoogleConnectionRow, force = false): Promise<string> {
    const now = this.d.clock();
    if (!force && c.accessToken && c.accessExpiresAt && c.accessExpiresAt.getTime() - 60_000 > now.getTime())
      return this.d.cipher.decryptText(c.workspaceId, c.accessToken, aadOf(c.id, 'access'));
    const fresh = await this.d.oauth().refresh(await this.refreshTokenOf(c));
    if (fresh === 'revoked') throw new GoogleGrantRevoked('google grant revoked');
    const accessToken = await this.d.cipher.encryptText(c.workspaceId, fresh.accessToken, aadOf(c.id, 'access'));
    const set: Partial<GoogleConnectionRow> = { accessToken, accessExpiresAt: fresh.expiresAt };
    // Google may rotate the refresh token: the new one replaces the old.
    if (fresh.refreshToken) set.refreshToken = await this.d.cipher.encryptText(c.workspaceId, fresh.refreshToken, aadOf(c.id, 'refresh'));
    await googleCalendarRepository(this.d.db).update(c.id, set);
    Object.assign(c, set);
    return fresh.accessToken;
  }

  /** Runs `call` with a valid access token; a 401 refreshes it once and tries again. */
  async with<T>(c: GoogleConnectionRow, call: (token: string) => Promise<T>): Promise<T> {
    try {
      return await call(await this.accessOf(c));
    } catch (err) {
      if (!(err instanceof GoogleApiError && err.unauthorized)) throw err;
      return call(await this.accessOf(c, true));
    }
  }
}
