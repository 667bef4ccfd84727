import type { AuthTokens, DeviceInfo } from '@divan/core';
import { REFRESH_TOKEN_TTL_DAYS } from '@divan/core';
import type { Db, DbOrTx } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { Realtime } from '../../platform/realtime/realtime';
import type { RevokedSessions } from '../../platform/auth/revoked-sessions';
import { randomToken, type TokenService } from '../../platform/auth/tokens';
import { toProfile } from '../users/users.service';
import type { UserRow } from '../users/users.service';
import { authRepository, type SessionContext } from './auth.repository';

/**
 * How long a just-rotated refresh token is still answered (with its successor): tabs of one browser
 * that refresh at once are not a theft. Later, or a token older than the one just rotated, is.
 */
export const REFRESH_GRACE_MS = 10_000;

type Deps = { db: Db; tokens: TokenService; realtime: Realtime; revoked: RevokedSessions };

/**
 * Device sessions (spec §7): each starts with an access token and a refresh token that rotates on every
 * refresh; reuse ends the session. Ended sessions' access tokens are refused at once, in every process.
 */
export class DeviceSessions {
  constructor(private readonly d: Deps) {}

  /**
   * Rotates the refresh token. A rotated token presented again means theft and the session ends, except
   * within REFRESH_GRACE_MS of its rotation while its successor is still current: then it is a second
   * tab that refreshed at the same moment, and it gets the same successor (derived from the token, so
   * it needs no stored secret) with a fresh access token.
   */
  async refresh(refreshToken: string, device: DeviceInfo, ctx: SessionContext) {
    const hash = this.d.tokens.hashSecret(refreshToken);
    const result = await this.d.db.transaction(async (tx) => {
      const repo = authRepository(tx);
      const rotated = await repo.rotate(hash);
      if (!rotated) return null;
      const session = await repo.findSession(rotated.sessionId);
      if (!session || session.revokedAt) return null;
      const next = this.successorOf(refreshToken);
      await repo.insertRefreshToken(session.id, this.d.tokens.hashSecret(next), refreshExpiry());
      await repo.touchSession(session.id, device, ctx);
      return { accessToken: this.accessFor(session.userId, session.id), refreshToken: next };
    });
    if (result) return result;
    const repo = authRepository(this.d.db);
    const known = await repo.findRefreshToken(hash);
    // Unknown, expired, or of a session already ended.
    if (!known?.rotatedAt || known.revokedAt) throw new AppError('session_not_found');
    if (Date.now() - known.rotatedAt.getTime() <= REFRESH_GRACE_MS) {
      const next = this.successorOf(refreshToken);
      const successor = await repo.findRefreshToken(this.d.tokens.hashSecret(next));
      if (successor && successor.sessionId === known.sessionId && !successor.rotatedAt && !successor.revokedAt)
        return { accessToken: this.accessFor(successor.userId, successor.sessionId), refreshToken: next };
    }
    await repo.revokeSession(known.sessionId, 'refresh_token_reuse');
    await this.ended([known.sessionId]);
    throw new AppError('session_not_found');
  }

  /** Signing out is idempotent: an unknown token is already signed out. */
  async logout(refreshToken: string): Promise<void> {
    const known = await authRepository(this.d.db).findRefreshToken(this.d.tokens.hashSecret(refreshToken));
    if (!known || known.revokedAt) return;
    await authRepository(this.d.db).revokeSession(known.sessionId, 'logout');
    await this.ended([known.sessionId]);
  }

  /** Start-up: sessions revoked recently enough that their access tokens may still be unexpired. */
  async loadRevoked(): Promise<void> {
    this.d.revoked.load(await authRepository(this.d.db).revokedSince(this.d.revoked.loadSince));
  }

  /**
   * After revocations commit: their access tokens are refused here at once, then in the other processes
   * when the broker's note arrives (which also closes their sockets).
   */
  async ended(sessionIds: string[]) {
    for (const id of sessionIds) this.d.revoked.add(id);
    await Promise.all(sessionIds.map((id) => this.d.realtime.endSession(id, 'session_not_found')));
  }

  private accessFor(userId: string, sessionId: string) {
    return this.d.tokens.signAccess({ sub: userId, sid: sessionId, realm: 'therapists' });
  }

  /** A rotated token's successor: a keyed hash of it, so a second tab's refresh gets the same one. */
  private successorOf(refreshToken: string) {
    return this.d.tokens.hashSecret(`refresh-successor:${refreshToken}`);
  }

  async live(refreshToken: string) {
    const known = await authRepository(this.d.db).findRefreshToken(this.d.tokens.hashSecret(refreshToken));
    if (!known || known.rotatedAt || known.revokedAt || known.expiresAt.getTime() <= Date.now())
      throw new AppError('session_not_found');
    return known;
  }

  async start(tx: DbOrTx, user: UserRow, device: DeviceInfo, ctx: SessionContext): Promise<AuthTokens> {
    const repo = authRepository(tx);
    const sessionId = await repo.insertSession(user.id, device, ctx);
    const refreshToken = randomToken();
    await repo.insertRefreshToken(sessionId, this.d.tokens.hashSecret(refreshToken), refreshExpiry());
    return {
      userId: user.id,
      accessToken: this.accessFor(user.id, sessionId),
      refreshToken,
      profile: toProfile(user),
    };
  }
}

const refreshExpiry = () => new Date(Date.now() + REFRESH_TOKEN_TTL_DAYS * 86_400_000);
