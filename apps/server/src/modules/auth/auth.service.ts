import argon2 from 'argon2';
import {
  CHALLENGE_COOLDOWN_MS,
  EMAIL_TOKEN_TTL_MS,
  LOGIN_CODE_MAX_ATTEMPTS,
  LOGIN_CODE_TTL_MS,
  PASSWORD_RESET_TTL_MS,
  isStrongPassword,
  msg,
  type AuthTokens,
  type DeviceInfo,
  type LoginSecondFactorBody,
  type TherapistLoginChallenge,
} from '@divan/core';
import type { Db, DbOrTx } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { Mailer } from '../../platform/mail/mailer';
import type { Realtime } from '../../platform/realtime/realtime';
import type { RevokedSessions } from '../../platform/auth/revoked-sessions';
import { randomToken, type TokenService } from '../../platform/auth/tokens';
import type { RateLimiter } from '../../platform/http/rate-limiter';
import type { UsersService } from '../users/users.service';
import type { UserRow } from '../users/users.service';
import { authRepository, type ChallengeKind, type ChallengeRow, type SessionContext } from './auth.repository';
export type { SessionContext } from './auth.repository';
import { confirmEmailMail, loginCodeMail, resetPasswordMail, stepUpCodeMail } from './auth.mails';
import { DeviceSessions } from './device-sessions';
import { CodeChallenges, isUuid } from './code-challenges';
import type { SecondFactorService } from './second-factor/second-factor.service';

type Deps = {
  db: Db;
  users: UsersService;
  tokens: TokenService;
  mailer: Mailer;
  realtime: Realtime;
  /** Ended sessions whose access tokens are refused at once, in every process. */
  revoked: RevokedSessions;
  emailLimiter: RateLimiter;
  publicUrl: string;
  /** The authenticator app (issue 32): an account with one answers its code after the password instead of a mailed one. */
  secondFactor: SecondFactorService;
  /** Runs inside the sign-up transaction (the new therapist's own workspace). */
  onUserCreated?: (tx: DbOrTx, user: UserRow, signUp: { referralCode: string | null }) => Promise<unknown>;
};

const ARGON2 = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Sign-up, two-step login, password reset and change (spec §7, realm therapists); device sessions in DeviceSessions. */
export class AuthService {
  readonly sessions: DeviceSessions;
  /** The patients' realm reuses the same device sessions and sign-in codes (patient-accounts module). */
  readonly patientSessions: DeviceSessions;
  readonly codes: CodeChallenges;

  constructor(private readonly d: Deps) {
    this.sessions = new DeviceSessions({ ...d, realm: 'therapists' });
    this.patientSessions = new DeviceSessions({ ...d, realm: 'patients' });
    this.codes = new CodeChallenges(d);
    this.sessions.enrolmentCheck = (userId, tx) => d.secondFactor.enrolmentRequired(userId, tx);
  }

  refresh = (refreshToken: string, device: DeviceInfo, ctx: SessionContext) => this.sessions.refresh(refreshToken, device, ctx);
  logout = (refreshToken: string) => this.sessions.logout(refreshToken);
  loadRevokedSessions = () => this.sessions.loadRevoked();

  async signUp(input: { firstName: string; email: string; password: string; referralCode?: string | null }): Promise<{ userId: string }> {
    await this.d.emailLimiter.hit(input.email);
    assertPasswordRule(input.password, 'password');
    const passwordHash = await argon2.hash(input.password, ARGON2);
    const { user } = await this.d.db.transaction(async (tx) => {
      const user = await this.d.users.create({ email: input.email, firstName: input.firstName, passwordHash }, tx);
      if (!user) throw new AppError('user_email_already_exists', [{ path: 'email', message: 'Ya existe una cuenta con ese email' }]);
      await this.d.onUserCreated?.(tx, user, { referralCode: input.referralCode ?? null });
      const token = await this.linkChallenge(tx, 'signup', user.id, EMAIL_TOKEN_TTL_MS);
      // In the outbox, in this transaction: slow or absent SMTP never fails a sign-up, and the mail is retried.
      await this.d.mailer.send(confirmEmailMail(user.email, user.firstName, `${this.d.publicUrl}/verify-email/${token}`), {
        tx,
        purpose: 'signup',
      });
      return { user };
    });
    return { userId: user.id };
  }

  async resendConfirmation(email: string): Promise<void> {
    await this.d.emailLimiter.hit(email);
    const user = await this.d.users.findByEmail(email);
    if (!user) throw new AppError('user_not_found');
    if (user.emailVerifiedAt) throw new AppError('user_already_verified');
    await this.d.db.transaction(async (tx) => {
      await this.d.users.lock(user.id, tx);
      await assertNoRecentChallenge(tx, user.id, 'signup');
      const token = await this.linkChallenge(tx, 'signup', user.id, EMAIL_TOKEN_TTL_MS);
      await this.d.mailer.send(confirmEmailMail(user.email, user.firstName, `${this.d.publicUrl}/verify-email/${token}`), {
        tx,
        purpose: 'signup',
      });
    });
  }

  async confirmSignUp(code: string, device: DeviceInfo, ctx: SessionContext): Promise<AuthTokens> {
    const challenge = await this.useLink('signup', code);
    return this.d.db.transaction(async (tx) => {
      await authRepository(tx).consumeAllOfKind(challenge.userId!, 'signup');
      const user = await this.d.users.markVerified(challenge.userId!, tx);
      if (!user) throw new AppError('user_not_found');
      return this.sessions.start(tx, user, device, ctx);
    });
  }

  async startLogin(email: string, password: string): Promise<TherapistLoginChallenge> {
    await this.d.emailLimiter.hit(email);
    const user = await this.d.users.findByEmail(email);
    if (!user) throw new AppError('user_not_found');
    if (!user.passwordHash) throw new AppError('no_password');
    if (!(await argon2.verify(user.passwordHash, password)))
      throw new AppError('invalid_password', [{ path: 'password', message: 'La contraseña no es correcta' }]);
    if (!user.emailVerifiedAt) throw new AppError('user_email_not_verified');
    const secondFactor = await this.secondFactorChallenge(user.id);
    if (secondFactor) return secondFactor;
    const challenge = await this.d.db.transaction(async (tx) => {
      await this.d.users.lock(user.id, tx);
      await assertNoRecentChallenge(tx, user.id, 'login');
      const issued = await this.codes.issue(tx, { realm: 'therapists', id: user.id });
      await this.d.mailer.send(loginCodeMail(user.email, user.firstName, issued.code), { tx, purpose: 'login', key: `login:${issued.id}` });
      return issued;
    });
    return { challenge: challenge.id, expiresAt: challenge.expiresAt.toISOString(), method: 'email' };
  }

  /**
   * An account with a second factor (an authenticator app or a passkey) answers it instead of a mailed code: a
   * `second_factor` challenge (undefined for an account with neither). Also after a password reset or a social sign-in.
   */
  async secondFactorChallenge(userId: string): Promise<TherapistLoginChallenge | undefined> {
    const totp = await this.d.secondFactor.hasTotp(userId);
    const passkey = await this.d.secondFactor.hasPasskey(userId);
    if (!totp && !passkey) return undefined;
    const row = await authRepository(this.d.db).insertChallenge({
      kind: 'second_factor',
      userId,
      secretHash: randomToken(),
      expiresAt: new Date(Date.now() + LOGIN_CODE_TTL_MS),
    });
    return { challenge: row.id, expiresAt: row.expiresAt.toISOString(), method: totp ? 'totp' : 'passkey', passkey };
  }

  /** The user of a live `second_factor` challenge (a passkey's options for the second step are only theirs). */
  async secondFactorChallengeUser(challengeId: string): Promise<string> {
    const found = isUuid(challengeId) ? await authRepository(this.d.db).findChallengeById(challengeId) : undefined;
    if (!found || found.kind !== 'second_factor' || found.consumedAt || !found.userId) throw new AppError('challenge_not_found');
    if (found.expiresAt.getTime() <= Date.now()) throw new AppError('challenge_expired');
    return found.userId;
  }

  /**
   * The second step of a sign-in with a second factor: the challenge of `startLogin` answered by the app's code, a
   * recovery code or (`verify` given) a passkey, within LOGIN_CODE_TTL_MS and LOGIN_CODE_MAX_ATTEMPTS like a mailed
   * code, once.
   */
  async loginSecondFactor(
    body: Pick<LoginSecondFactorBody, 'challenge' | 'code' | 'recoveryCode'>,
    device: DeviceInfo,
    ctx: SessionContext,
    verify?: (userId: string) => Promise<unknown>,
  ): Promise<AuthTokens> {
    const repo = authRepository(this.d.db);
    const userId = await this.secondFactorChallengeUser(body.challenge);
    if (!(await repo.countAttempt(body.challenge, LOGIN_CODE_MAX_ATTEMPTS))) {
      const again = await repo.findChallengeById(body.challenge);
      throw new AppError(again?.consumedAt ? 'challenge_not_found' : 'max_attempts');
    }
    const found = { id: body.challenge, userId };
    await (verify ? verify(userId) : this.d.secondFactor.verify(userId, body));
    return this.d.db.transaction(async (tx) => {
      if (!(await authRepository(tx).consume(found.id))) throw new AppError('challenge_not_found');
      const user = await this.d.users.findById(found.userId, tx);
      if (!user) throw new AppError('user_not_found');
      return this.sessions.start(tx, user, device, ctx);
    });
  }

  async login(challengeId: string, code: string, device: DeviceInfo, ctx: SessionContext): Promise<AuthTokens> {
    const found = await this.codes.check('therapists', challengeId, code);
    return this.d.db.transaction(async (tx) => {
      await this.codes.consume(tx, found.id);
      const user = await this.d.users.findById(found.subjectId, tx);
      if (!user) throw new AppError('user_not_found');
      return this.sessions.start(tx, user, device, ctx);
    });
  }

  /** Step-up by mail, for an account without an authenticator app: a code like a sign-in's, through the outbox. */
  async startEmailStepUp(user: { id: string }): Promise<{ challenge: string; expiresAt: string }> {
    const found = await this.d.users.findById(user.id);
    if (!found) throw new AppError('session_not_found');
    await this.d.emailLimiter.hit(found.email);
    const issued = await this.d.db.transaction(async (tx) => {
      await this.d.users.lock(found.id, tx);
      await assertNoRecentChallenge(tx, found.id, 'login');
      const issued = await this.codes.issue(tx, { realm: 'therapists', id: found.id });
      await this.d.mailer.send(stepUpCodeMail(found.email, found.firstName, issued.code), {
        tx,
        purpose: 'login',
        key: `login:${issued.id}`,
      });
      return issued;
    });
    return { challenge: issued.id, expiresAt: issued.expiresAt.toISOString() };
  }

  /** The mailed step-up code: checked (attempts limited), consumed, and this session's second factor is now. */
  async emailStepUp(user: { id: string; sessionId: string }, challenge: string, code: string): Promise<{ verifiedAt: string }> {
    const found = await this.codes.check('therapists', challenge, code);
    if (found.subjectId !== user.id) throw new AppError('challenge_not_found');
    const at = new Date();
    await this.d.db.transaction(async (tx) => {
      await this.codes.consume(tx, found.id);
      await this.d.secondFactor.markVerified(user.sessionId, at, tx);
    });
    return { verifiedAt: at.toISOString() };
  }

  /** Always succeeds for the caller, so it tells nobody whether an account exists. */
  async requestPasswordReset(email: string): Promise<void> {
    await this.d.emailLimiter.hit(email);
    const user = await this.d.users.findByEmail(email);
    if (!user) return;
    await this.d.db.transaction(async (tx) => {
      await this.d.users.lock(user.id, tx);
      const last = await authRepository(tx).latestChallenge(user.id, 'password');
      if (last && Date.now() - last.createdAt.getTime() < CHALLENGE_COOLDOWN_MS) return;
      const token = await this.linkChallenge(tx, 'password', user.id, PASSWORD_RESET_TTL_MS);
      await this.d.mailer.send(resetPasswordMail(user.email, user.firstName, `${this.d.publicUrl}/reset-password/${token}`), {
        tx,
        purpose: 'password',
      });
    });
  }

  /**
   * The mailed link sets a new password. The link proves the email only: an account with a second factor (an
   * authenticator app or a passkey) then answers it like a sign-in (a `second_factor` challenge instead of tokens).
   */
  async resetPassword(
    code: string,
    password: string,
    device: DeviceInfo,
    ctx: SessionContext,
  ): Promise<AuthTokens | TherapistLoginChallenge> {
    assertPasswordRule(password, 'password');
    const challenge = await this.useLink('password', code);
    const passwordHash = await argon2.hash(password, ARGON2);
    const userId = challenge.userId!;
    const secondFactor = await this.d.secondFactor.hasSecondFactor(userId);
    const { tokens, revoked } = await this.d.db.transaction(async (tx) => {
      const repo = authRepository(tx);
      await repo.consumeAllOfKind(userId, 'password');
      await this.d.users.setPasswordHash(userId, passwordHash, tx);
      // Whoever knew the old password is signed out everywhere; the link proves the email.
      const revoked = await repo.revokeOtherSessions(userId, null, 'password_reset');
      const user = (await this.d.users.markVerified(userId, tx))!;
      return { tokens: secondFactor ? null : await this.sessions.start(tx, user, device, ctx), revoked };
    });
    await this.sessions.ended(revoked);
    return tokens ?? (await this.secondFactorChallenge(userId))!;
  }

  async changePassword(refreshToken: string, currentPassword: string, newPassword: string): Promise<void> {
    const session = await this.sessions.live(refreshToken);
    const user = await this.d.users.findById(session.subjectId);
    if (!user) throw new AppError('session_not_found');
    if (!user.passwordHash) throw new AppError('no_password');
    if (!(await argon2.verify(user.passwordHash, currentPassword)))
      throw new AppError('invalid_password', [{ path: 'currentPassword', message: 'La contraseña actual no es correcta' }]);
    if (currentPassword === newPassword) throw new AppError('password_equal', [{ path: 'newPassword', message: msg.passwordEqual() }]);
    assertPasswordRule(newPassword, 'newPassword');
    const passwordHash = await argon2.hash(newPassword, ARGON2);
    const revoked = await this.d.db.transaction(async (tx) => {
      await this.d.users.setPasswordHash(user.id, passwordHash, tx);
      return authRepository(tx).revokeOtherSessions(user.id, session.sessionId, 'password_changed');
    });
    await this.sessions.ended(revoked);
  }

  private async linkChallenge(tx: DbOrTx, kind: ChallengeKind, userId: string, ttlMs: number) {
    const token = randomToken();
    await authRepository(tx).insertChallenge({
      kind,
      userId,
      secretHash: this.d.tokens.hashSecret(token),
      expiresAt: new Date(Date.now() + ttlMs),
    });
    return token;
  }

  /** Finds and consumes a mailed link; its errors say whether it is unknown, used or expired. */
  private async useLink(kind: ChallengeKind, token: string): Promise<ChallengeRow> {
    const repo = authRepository(this.d.db);
    const challenge = await repo.findLinkChallenge(kind, this.d.tokens.hashSecret(token));
    if (!challenge?.userId || challenge.consumedAt) throw new AppError('challenge_not_found');
    if (challenge.expiresAt.getTime() <= Date.now()) throw new AppError('challenge_expired');
    if (!(await repo.consume(challenge.id))) throw new AppError('challenge_not_found');
    return challenge;
  }

  /** Expired challenges and refresh tokens, a batch at a time (the hourly sweep). */
  sweepExpired = () => authRepository(this.d.db).deleteExpired(500);
}

async function assertNoRecentChallenge(tx: DbOrTx, userId: string, kind: ChallengeKind) {
  const last = await authRepository(tx).latestChallenge(userId, kind);
  if (last && Date.now() - last.createdAt.getTime() < CHALLENGE_COOLDOWN_MS) throw new AppError('recent_challenge');
}

function assertPasswordRule(password: string, path: string) {
  if (!isStrongPassword(password)) throw new AppError('password_conditions', [{ path, message: msg.passwordRule() }]);
}
