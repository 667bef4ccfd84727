import type { AuthTokens, DeviceInfo } from '@divan/core';
import { REFRESH_TOKEN_TTL_DAYS } from '@divan/core';
import type { Db, DbOrTx } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { Realtime } from '../../platform/realtime/realtime';
import type { RevokedSessions } from '../../platform/auth/revoked-sessions';
import { randomToken, type Realm, type TokenService } from '../../platform/auth/tokens';
import { toProfile } from '../users/users.service';
import type { UserRow } from '../users/users.service';
import { authRepository, type SessionContext } from './auth.repository';

/**
 * How long a just-rotated refresh token is still answered (with its successor): tabs of one browser
 * that refresh at once are not a theft. Later, or a token older than the one just rotated, is.
 */
export const REFRESH_GRACE_MS = 10_000;

type Deps = { db: Db; tokens: TokenService; realtime: Realtime; revoked: RevokedSessions; realm: Realm };
/** Whether a therapist must still enrol a second factor (a workspace requires one): their access tokens say so (issue 32). */
export type EnrolmentCheck = (userId: string, tx: DbOrTx) => Promise<boolean>;

/**
 * Device sessions (spec §7): each starts with an access token and a refresh token that rotates on every
 * refresh; reuse ends the session. Ended sessions' access tokens are refused at once, in every process.
 * One instance per realm: a refresh token of one realm is refused (as unknown) by the other's.
 */
export class DeviceSessions {
  constructor(private readonly d: Deps) {}

  /** Set by the auth module once the second factor is built (therapists' realm only). */
  enrolmentCheck?: EnrolmentCheck;

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
      // Another realm's token: refused without ending its session (the rotation rolls back).
      if (session.realm !== this.d.realm) throw new AppError('session_not_found');
      const next = this.successorOf(refreshToken);
      await repo.insertRefreshToken(session.id, this.d.tokens.hashSecret(next), refreshExpiry());
      await repo.touchSession(session.id, device, ctx);
      return { accessToken: await this.accessFor(session.subjectId, session.id, tx), refreshToken: next };
    });
    if (result) return result;
    const repo = authRepository(this.d.db);
    const known = await repo.findRefreshToken(hash);
    // Unknown, expired, of a session already ended, or of another realm.
    if (!known?.rotatedAt || known.revokedAt || known.realm !== this.d.realm) throw new AppError('session_not_found');
    if (Date.now() - known.rotatedAt.getTime() <= REFRESH_GRACE_MS) {
      const next = this.successorOf(refreshToken);
      const successor = await repo.findRefreshToken(this.d.tokens.hashSecret(next));
      if (successor && successor.sessionId === known.sessionId && !successor.rotatedAt && !successor.revokedAt)
        return { accessToken: await this.accessFor(successor.subjectId, successor.sessionId, this.d.db), refreshToken: next };
    }
    await repo.revokeSession(known.sessionId, 'refresh_token_reuse');
    await this.ended([known.sessionId]);
    throw new AppError('session_not_found');
  }

  /** Signing out is idempotent: an unknown token is already signed out. */
  async logout(refreshToken: string): Promise<void> {
    const known = await authRepository(this.d.db).findRefreshToken(this.d.tokens.hashSecret(refreshToken));
    if (!known || known.revokedAt || known.realm !== this.d.realm) return;
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

  private async accessFor(subjectId: string, sessionId: string, tx: DbOrTx) {
    const enrol = this.d.realm === 'therapists' && !!(await this.enrolmentCheck?.(subjectId, tx));
    return this.d.tokens.signAccess({ sub: subjectId, sid: sessionId, realm: this.d.realm, ...(enrol ? { enrol: true as const } : {}) });
  }

  /** A rotated token's successor: a keyed hash of it, so a second tab's refresh gets the same one. */
  private successorOf(refreshToken: string) {
    return this.d.tokens.hashSecret(`refresh-successor:${refreshToken}`);
  }

  async live(refreshToken: string) {
    const known = await authRepository(this.d.db).findRefreshToken(this.d.tokens.hashSecret(refreshToken));
    if (!known || known.realm !== this.d.realm || known.rotatedAt || known.revokedAt || known.expiresAt.getTime() <= Date.now())
      throw new AppError('session_not_found');
    return known;
  }

  /** A therapist's new device session, with the profile the sign-in answers. */
  async start(tx: DbOrTx, user: UserRow, device: DeviceInfo, ctx: SessionContext): Promise<AuthTokens> {
    const { accessToken, refreshToken } = await this.open(tx, user.id, device, ctx);
    return { userId: user.id, accessToken, refreshToken, profile: toProfile(user) };
  }

  /** A new device session of this realm for `subjectId` (a user's or a patient account's id). */
  async open(tx: DbOrTx, subjectId: string, device: DeviceInfo, ctx: SessionContext) {
    const repo = authRepository(tx);
    const sessionId = await repo.insertSession({ realm: this.d.realm, id: subjectId }, device, ctx);
    const refreshToken = randomToken();
    await repo.insertRefreshToken(sessionId, this.d.tokens.hashSecret(refreshToken), refreshExpiry());
    return { accessToken: await this.accessFor(subjectId, sessionId, tx), refreshToken, sessionId };
  }
}

const refreshExpiry = () => new Date(Date.now() + REFRESH_TOKEN_TTL_DAYS * 86_400_000);
