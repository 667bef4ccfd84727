import { randomBytes } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import {
  RECOVERY_CODE_COUNT,
  STEP_UP_WINDOW_MS,
  type RecoveryCodes,
  type SecondFactorBody,
  type SecondFactorPolicy,
  type SecondFactorStatus,
  type TotpEnrolment,
} from '@divan/core';
import type { Db, DbOrTx } from '../../../platform/db/database';
import type { Cipher } from '../../../platform/crypto/cipher';
import { AppError } from '../../../platform/errors';
import type { RequestUser } from '../../../platform/auth/access';
import type { TokenService } from '../../../platform/auth/tokens';
import type { AuditAction, AuditService } from '../../audit/audit.service';
import type { UsersService } from '../../users/users.service';
import type { MembersService } from '../../workspaces/members.service';
import type { WorkspacesService } from '../../workspaces/workspaces.service';
import { secondFactorRepository } from './second-factor.repository';
import { passkeysRepository } from '../passkeys/passkeys.repository';

/** The data key's scope of the TOTP secrets (not a workspace's: a person's authenticator is theirs in every workspace). */
export const SECOND_FACTOR_KEY = 'divan:second-factor';
const ISSUER = 'Diván';
/** ±1 time step of 30 s: a phone's clock a little off still signs in. */
const TOLERANCE_S = 30;
const RECOVERY_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

type Deps = {
  db: Db;
  cipher: Cipher;
  tokens: TokenService;
  users: UsersService;
  workspaces: WorkspacesService;
  members: MembersService;
  audit: AuditService;
};

/**
 * The second factor of issue 32: an authenticator app (TOTP) with its recovery codes, the workspace policy
 * «Segundo factor obligatorio», and step-up (a second factor proved within STEP_UP_WINDOW_MS) for sensitive actions.
 */
export class SecondFactorService {
  constructor(private readonly d: Deps) {}

  hasTotp = (userId: string, tx: DbOrTx = this.d.db) => secondFactorRepository(tx).hasEnabledTotp(userId);
  hasPasskey = async (userId: string, tx: DbOrTx = this.d.db) => (await passkeysRepository(tx).countOf(userId)) > 0;
  /** An authenticator app or a passkey: what the workspace policy asks for. */
  hasSecondFactor = async (userId: string, tx: DbOrTx = this.d.db) =>
    (await this.hasTotp(userId, tx)) || (await this.hasPasskey(userId, tx));

  /** A workspace of the user requires a second factor and they have none: their access tokens carry `enrol`. */
  async enrolmentRequired(userId: string, tx: DbOrTx = this.d.db): Promise<boolean> {
    const repo = secondFactorRepository(tx);
    const ids = await this.d.workspaces.workspaceIdsOf(userId, tx);
    if (!(await repo.enforcing(ids)).length) return false;
    return !(await this.hasSecondFactor(userId, tx));
  }

  async status(user: RequestUser): Promise<SecondFactorStatus> {
    const repo = secondFactorRepository(this.d.db);
    const totp = await repo.findTotp(user.id);
    const enabled = !!totp?.enabledAt;
    const passkeys = await passkeysRepository(this.d.db).countOf(user.id);
    return {
      totp: enabled,
      totpEnabledAt: totp?.enabledAt?.toISOString() ?? null,
      recoveryCodesLeft: enabled ? await repo.recoveryCodesLeft(user.id) : 0,
      passkeys,
      enrolmentRequired: !enabled && !passkeys && (await this.enrolmentRequired(user.id)),
      verifiedAt: ((await repo.sessionSecondFactorAt(user.sessionId)) ?? new Date(0)).toISOString(),
    };
  }

  /** A new secret, pending until one code confirms it (`confirmTotp`); again, it replaces the pending one. */
  async startTotp(userId: string): Promise<TotpEnrolment> {
    const user = await this.d.users.findById(userId);
    if (!user) throw new AppError('session_not_found');
    const secret = generateSecret();
    const secretEnc = await this.d.cipher.encryptText(SECOND_FACTOR_KEY, secret, totpAad(userId));
    if (!(await secondFactorRepository(this.d.db).putPendingTotp(userId, secretEnc))) throw new AppError('totp_already_enrolled');
    const uri = generateURI({ issuer: ISSUER, label: user.email, secret });
    const { toDataURL } = await import('qrcode');
    return { secret, uri, qrDataUrl: await toDataURL(uri, { errorCorrectionLevel: 'M', margin: 1, width: 240 }) };
  }

  /** The confirming code enables the authenticator, gives the first recovery codes and counts as this session's second factor. */
  async confirmTotp(user: RequestUser, code: string): Promise<RecoveryCodes> {
    const found = await secondFactorRepository(this.d.db).findTotp(user.id);
    if (!found) throw new AppError('totp_enrolment_not_found');
    if (found.enabledAt) throw new AppError('totp_already_enrolled');
    const step = await this.checkCode(user.id, found, code);
    const { codes, hashes } = this.newRecoveryCodes(user.id);
    await this.d.db.transaction(async (tx) => {
      const repo = secondFactorRepository(tx);
      if (!(await repo.useStep(user.id, step, true))) throw new AppError('code_already_used');
      await repo.replaceRecoveryCodes(user.id, hashes);
      await repo.markSessionVerified(user.sessionId);
      await this.auditEverywhere(tx, user.id, 'second_factor.enabled');
    });
    return { recoveryCodes: codes };
  }

  /** A fresh set of ten, the old ones void at once. A sensitive action: step-up first. */
  async regenerateRecoveryCodes(user: RequestUser): Promise<RecoveryCodes> {
    if (!(await this.hasTotp(user.id))) throw new AppError('totp_not_enrolled');
    await this.requireStepUp(user);
    const { codes, hashes } = this.newRecoveryCodes(user.id);
    await this.d.db.transaction(async (tx) => {
      await secondFactorRepository(tx).replaceRecoveryCodes(user.id, hashes);
      await this.auditEverywhere(tx, user.id, 'second_factor.recovery_codes_regenerated');
    });
    return { recoveryCodes: codes };
  }

  /**
   * Removes the authenticator and its recovery codes: never while a workspace of the user requires a second factor and
   * it is their last one (no passkey). Step-up first.
   */
  async disableTotp(user: RequestUser): Promise<void> {
    if (!(await this.hasTotp(user.id))) throw new AppError('totp_not_enrolled');
    await this.requireStepUp(user);
    await this.d.db.transaction(async (tx) => {
      const ids = await this.d.workspaces.workspaceIdsOf(user.id, tx);
      if ((await secondFactorRepository(tx).enforcing(ids)).length && !(await this.hasPasskey(user.id, tx)))
        throw new AppError('second_factor_policy_required');
      await secondFactorRepository(tx).deleteTotp(user.id);
      await this.auditEverywhere(tx, user.id, 'second_factor.disabled');
    });
  }

  /**
   * The second step of a sign-in or a step-up: the app's code (±1 step, never one already used) or an unused recovery
   * code. Throws `invalid_code` or `code_already_used` (Spanish messages).
   */
  async verify(userId: string, body: { code?: string; recoveryCode?: string }): Promise<'totp' | 'recovery_code'> {
    const repo = secondFactorRepository(this.d.db);
    const found = await repo.findTotp(userId);
    if (!found?.enabledAt) throw new AppError('totp_not_enrolled');
    if (body.recoveryCode) {
      if (!(await repo.useRecoveryCode(userId, this.recoveryHash(userId, body.recoveryCode))))
        throw new AppError('invalid_code', [{ path: 'recoveryCode', message: 'El código de recuperación no es válido o ya se ha usado' }]);
      return 'recovery_code';
    }
    const step = await this.checkCode(userId, found, body.code ?? '');
    if (!(await repo.useStep(userId, step))) throw new AppError('code_already_used');
    return 'totp';
  }

  /** Step-up: a second factor proved now, for this session's sensitive actions in the next STEP_UP_WINDOW_MS. */
  async stepUp(user: RequestUser, body: Omit<SecondFactorBody, 'challenge'>): Promise<{ verifiedAt: string }> {
    await this.verify(user.id, body);
    const at = new Date();
    await secondFactorRepository(this.d.db).markSessionVerified(user.sessionId, at);
    return { verifiedAt: at.toISOString() };
  }

  markVerified = (sessionId: string, at: Date, tx: DbOrTx = this.d.db) => secondFactorRepository(tx).markSessionVerified(sessionId, at);

  /** Sensitive actions: `step_up_required` unless this session proved a second factor within STEP_UP_WINDOW_MS. */
  async requireStepUp(user: RequestUser): Promise<void> {
    const at = await secondFactorRepository(this.d.db).sessionSecondFactorAt(user.sessionId);
    if (!at || Date.now() - at.getTime() > STEP_UP_WINDOW_MS) throw new AppError('step_up_required');
  }

  async policy(workspaceId: string): Promise<SecondFactorPolicy> {
    const found = await secondFactorRepository(this.d.db).findPolicy(workspaceId);
    const people = (await this.d.members.list(workspaceId)).filter((m) => m.kind === 'member' && m.userId);
    const ids = people.map((m) => m.userId!);
    const withApp = await secondFactorRepository(this.d.db).enrolledAmong(ids);
    const withPasskey = await passkeysRepository(this.d.db).usersWith(ids);
    const enrolled = new Set([...withApp, ...withPasskey]);
    return {
      required: !!found,
      changedAt: found?.enabledAt.toISOString() ?? null,
      membersWithout: people
        .filter((m) => !enrolled.has(m.userId!))
        .map((m) => ({ userId: m.userId!, name: [m.firstName, m.lastName].filter(Boolean).join(' ') || m.email, email: m.email })),
    };
  }

  /**
   * «Segundo factor obligatorio» on or off (the owner). On: the owner must have one first. Off: a sensitive action (step-up).
   * Members' next access tokens (at the latest a refresh away) carry the change.
   */
  async setPolicy(workspaceId: string, user: RequestUser, required: boolean): Promise<SecondFactorPolicy> {
    if (required && !(await this.hasSecondFactor(user.id))) throw new AppError('second_factor_policy_own_first');
    if (!required) await this.requireStepUp(user);
    await this.d.db.transaction(async (tx) => {
      const repo = secondFactorRepository(tx);
      const changed = required ? await repo.enablePolicy(workspaceId, user.id) : await repo.disablePolicy(workspaceId);
      if (changed)
        await this.d.audit.record(tx, {
          workspaceId,
          actorId: user.id,
          action: required ? 'second_factor_policy.enabled' : 'second_factor_policy.disabled',
        });
    });
    return this.policy(workspaceId);
  }

  /** Checks a code against the secret (±1 step); the accepted time step, still to be recorded. */
  private async checkCode(userId: string, row: { secretEnc: string; lastUsedStep: number | null }, code: string): Promise<number> {
    const secret = await this.d.cipher.decryptText(SECOND_FACTOR_KEY, row.secretEnc, totpAad(userId));
    const result = /^\d{6}$/.test(code) ? await verify({ secret, token: code, epochTolerance: TOLERANCE_S }) : { valid: false as const };
    if (!result.valid || !('timeStep' in result))
      throw new AppError('invalid_code', [{ path: 'code', message: 'El código no es correcto' }]);
    if (row.lastUsedStep !== null && result.timeStep <= row.lastUsedStep) throw new AppError('code_already_used');
    return result.timeStep;
  }

  private newRecoveryCodes(userId: string) {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
      const raw = [...randomBytes(10)].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
      return `${raw.slice(0, 5)}-${raw.slice(5)}`;
    });
    return { codes, hashes: codes.map((c) => this.recoveryHash(userId, c)) };
  }

  /** Keyed hash of the code as typed without case, spaces or hyphen, bound to its user. */
  private recoveryHash(userId: string, code: string) {
    return this.d.tokens.hashSecret(`recovery:${userId}:${code.replace(/[\s-]+/g, '').toLowerCase()}`);
  }

  /** A person's own second factor changed: recorded in each workspace they belong to. */
  private async auditEverywhere(tx: DbOrTx, userId: string, action: AuditAction) {
    for (const workspaceId of await this.d.workspaces.workspaceIdsOf(userId, tx))
      await this.d.audit.record(tx, { workspaceId, actorId: userId, action, target: userId });
  }
}

const totpAad = (userId: string) => `totp:${userId}:secret`;
