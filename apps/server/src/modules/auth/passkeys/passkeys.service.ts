import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { WEBAUTHN_CHALLENGE_TTL_MS, type AuthTokens, type DeviceInfo, type Passkey, type WebauthnOptions } from '@divan/core';
import type { Db, DbOrTx } from '../../../platform/db/database';
import { AppError } from '../../../platform/errors';
import type { RequestUser } from '../../../platform/auth/access';
import type { TokenService } from '../../../platform/auth/tokens';
import type { AuditAction, AuditService } from '../../audit/audit.service';
import type { UsersService } from '../../users/users.service';
import type { WorkspacesService } from '../../workspaces/workspaces.service';
import type { DeviceSessions } from '../device-sessions';
import type { SessionContext } from '../auth.repository';
import { socialRepository } from '../social/social.repository';
import { secondFactorRepository } from '../second-factor/second-factor.repository';
import type { SecondFactorService } from '../second-factor/second-factor.service';
import { passkeysRepository, type PasskeyRow, type WebauthnPurpose } from './passkeys.repository';

const RP_NAME = 'Diván';
/** A person's passkeys: enough for every device and a spare key, bounded so a script cannot fill the table. */
const MAX_PASSKEYS = 20;

type Deps = {
  db: Db;
  tokens: TokenService;
  users: UsersService;
  workspaces: WorkspacesService;
  audit: AuditService;
  secondFactor: SecondFactorService;
  /** The therapists' device sessions: a passkey alone signs in like a login. */
  sessions: DeviceSessions;
  publicUrl: string;
};

/**
 * The relying party from PUBLIC_URL: its host names the passkeys (rpID) and its origin is the only one accepted. An IP
 * address cannot be an rpID, so a loopback address (a development machine, the e2e run) is served as `localhost`.
 */
export function relyingParty(publicUrl: string): { rpId: string; origin: string } {
  const url = new URL(publicUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && (host === '127.0.0.1' || host === '::1')) {
    url.hostname = 'localhost';
    return { rpId: 'localhost', origin: url.origin };
  }
  return { rpId: host, origin: url.origin };
}

/**
 * Passkeys (WebAuthn, issue 32): registered several per person with a name, listed with their last use, renamed and
 * deleted; used to sign in alone (a discoverable credential), as the second step of a sign-in, and for step-up. Every
 * challenge is stored as a keyed hash, answered once within WEBAUTHN_CHALLENGE_TTL_MS, for one purpose.
 */
export class PasskeysService {
  private readonly rp: { rpId: string; origin: string };

  constructor(private readonly d: Deps) {
    this.rp = relyingParty(d.publicUrl);
  }

  async list(userId: string): Promise<Passkey[]> {
    return (await passkeysRepository(this.d.db).listOf(userId)).map(present);
  }

  /** Options for `navigator.credentials.create`: a discoverable credential, none of the person's existing ones again. */
  async registrationOptions(user: RequestUser): Promise<WebauthnOptions> {
    const found = await this.d.users.findById(user.id);
    if (!found) throw new AppError('session_not_found');
    const mine = await passkeysRepository(this.d.db).listOf(user.id);
    if (mine.length >= MAX_PASSKEYS) throw new AppError('passkey_limit');
    const options = await generateRegistrationOptions({
      rpName: RP_NAME,
      rpID: this.rp.rpId,
      userName: found.email,
      userDisplayName: [found.firstName, found.lastName].filter(Boolean).join(' ') || found.email,
      userID: new TextEncoder().encode(user.id),
      challenge: randomBytes(32),
      attestationType: 'none',
      timeout: WEBAUTHN_CHALLENGE_TTL_MS,
      excludeCredentials: mine.map((p) => ({ id: p.credentialId, transports: p.transports })),
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'preferred' },
    });
    await this.storeChallenge(options.challenge, 'register', user.id);
    return options as unknown as WebauthnOptions;
  }

  /** The browser's answer to `registrationOptions`, named by the person. */
  async register(user: RequestUser, name: string, response: RegistrationResponseJSON): Promise<Passkey> {
    const challenge = await this.useChallenge(response.response.clientDataJSON, 'register');
    if (challenge.row.userId !== user.id) throw new AppError('passkey_challenge_invalid');
    let info;
    try {
      const result = await verifyRegistrationResponse({
        response,
        expectedChallenge: challenge.value,
        expectedOrigin: this.rp.origin,
        expectedRPID: this.rp.rpId,
        requireUserVerification: false,
      });
      if (!result.verified) throw new Error('not verified');
      info = result.registrationInfo;
    } catch {
      throw new AppError('passkey_invalid');
    }
    return this.d.db.transaction(async (tx) => {
      await this.d.users.lock(user.id, tx);
      const repo = passkeysRepository(tx);
      if ((await repo.countOf(user.id)) >= MAX_PASSKEYS) throw new AppError('passkey_limit');
      const row = await repo.insert({
        userId: user.id,
        credentialId: info.credential.id,
        publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
        counter: info.credential.counter,
        transports: info.credential.transports ?? response.response.transports ?? [],
        name,
        deviceType: info.credentialDeviceType,
        backedUp: info.credentialBackedUp,
      });
      if (!row) throw new AppError('passkey_already_registered');
      await this.auditEverywhere(tx, user.id, 'passkey.added', row);
      return present(row);
    });
  }

  async rename(user: RequestUser, id: string, name: string): Promise<Passkey> {
    return this.d.db.transaction(async (tx) => {
      const row = await passkeysRepository(tx).rename(user.id, id, name);
      if (!row) throw new AppError('passkey_not_found');
      await this.auditEverywhere(tx, user.id, 'passkey.renamed', row);
      return present(row);
    });
  }

  /**
   * A sensitive action (step-up). Never the last way in (no password, no linked Google or Apple, no other passkey),
   * nor the last second factor while a workspace of the person requires one. Under the user's row lock: two deletions at
   * once cannot both pass.
   */
  async remove(user: RequestUser, id: string): Promise<void> {
    if (!(await passkeysRepository(this.d.db).findOwn(user.id, id))) throw new AppError('passkey_not_found');
    await this.d.secondFactor.requireStepUp(user);
    await this.d.db.transaction(async (tx) => {
      await this.d.users.lock(user.id, tx);
      const repo = passkeysRepository(tx);
      const row = await repo.findOwn(user.id, id);
      if (!row) throw new AppError('passkey_not_found');
      const others = (await repo.countOf(user.id)) - 1;
      if (others === 0) {
        const found = await this.d.users.findById(user.id, tx);
        if (!found?.passwordHash && !(await socialRepository(tx).listIdentities(user.id)).length) throw new AppError('passkey_last_way_in');
        const ids = await this.d.workspaces.workspaceIdsOf(user.id, tx);
        const sf = secondFactorRepository(tx);
        if ((await sf.enforcing(ids)).length && !(await sf.hasEnabledTotp(user.id))) throw new AppError('passkey_policy_required');
      }
      if (!(await repo.remove(user.id, id))) throw new AppError('passkey_not_found');
      await this.auditEverywhere(tx, user.id, 'passkey.removed', row);
    });
  }

  /** Sign in with a passkey alone: options without a user (the browser offers the discoverable credentials it has). */
  async signInOptions(): Promise<WebauthnOptions> {
    return this.assertionOptions('sign_in', null);
  }

  /** A passkey alone signs in: the same tokens as a login, this session's second factor proved now. */
  async signIn(response: AuthenticationResponseJSON, device: DeviceInfo, ctx: SessionContext): Promise<AuthTokens> {
    const { userId } = await this.assert('sign_in', response, null);
    return this.d.db.transaction(async (tx) => {
      const user = await this.d.users.findById(userId, tx);
      if (!user) throw new AppError('passkey_invalid');
      return this.d.sessions.start(tx, user, device, ctx);
    });
  }

  /** Options for the second step of a sign-in or for step-up: only this person's passkeys. */
  secondFactorOptions = (userId: string, purpose: 'second_factor' | 'step_up') => this.assertionOptions(purpose, userId);

  /** Step-up with a passkey: this session's sensitive actions are allowed for STEP_UP_WINDOW_MS. */
  async stepUp(user: RequestUser, response: AuthenticationResponseJSON): Promise<{ verifiedAt: string }> {
    await this.assert('step_up', response, user.id);
    const at = new Date();
    await this.d.secondFactor.markVerified(user.sessionId, at);
    return { verifiedAt: at.toISOString() };
  }

  /**
   * Checks an assertion: its challenge (once, for `purpose`, of `userId` when given), the credential (registered, of that
   * user), the signature, user presence and the signature counter (refused when it goes back: a cloned authenticator).
   */
  async assert(purpose: WebauthnPurpose, response: AuthenticationResponseJSON, userId: string | null) {
    const challenge = await this.useChallenge(response.response.clientDataJSON, purpose);
    const passkey = await passkeysRepository(this.d.db).findByCredentialId(response.id);
    if (!passkey) throw new AppError('passkey_invalid');
    if ((userId && passkey.userId !== userId) || (challenge.row.userId && challenge.row.userId !== passkey.userId))
      throw new AppError('passkey_invalid');
    const handle = response.response.userHandle;
    if (handle && handle !== Buffer.from(passkey.userId).toString('base64url')) throw new AppError('passkey_invalid');
    let newCounter: number;
    try {
      const result = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge.value,
        expectedOrigin: this.rp.origin,
        expectedRPID: this.rp.rpId,
        credential: { id: passkey.credentialId, publicKey: Buffer.from(passkey.publicKey, 'base64url'), counter: passkey.counter },
        requireUserVerification: false,
      });
      if (!result.verified) throw new Error('not verified');
      newCounter = result.authenticationInfo.newCounter;
    } catch (error) {
      if (/counter/i.test((error as Error).message)) throw new AppError('passkey_counter_regression');
      throw new AppError('passkey_invalid');
    }
    if (!(await passkeysRepository(this.d.db).recordUse(passkey.id, newCounter))) throw new AppError('passkey_counter_regression');
    return { userId: passkey.userId, passkeyId: passkey.id };
  }

  /** Used or expired challenges (the hourly sweep). */
  sweepExpired = () => passkeysRepository(this.d.db).deleteStale(500);

  private async assertionOptions(purpose: WebauthnPurpose, userId: string | null): Promise<WebauthnOptions> {
    const mine = userId ? await passkeysRepository(this.d.db).listOf(userId) : [];
    const options = await generateAuthenticationOptions({
      rpID: this.rp.rpId,
      challenge: randomBytes(32),
      timeout: WEBAUTHN_CHALLENGE_TTL_MS,
      userVerification: 'preferred',
      allowCredentials: mine.map((p) => ({ id: p.credentialId, transports: p.transports as never })),
    });
    await this.storeChallenge(options.challenge, purpose, userId);
    return options as unknown as WebauthnOptions;
  }

  private async storeChallenge(challenge: string, purpose: WebauthnPurpose, userId: string | null) {
    await passkeysRepository(this.d.db).insertChallenge({
      challengeHash: this.challengeHash(challenge),
      purpose,
      userId,
      expiresAt: new Date(Date.now() + WEBAUTHN_CHALLENGE_TTL_MS),
    });
  }

  /** The challenge the browser signed (read from clientDataJSON), used once: unknown, used, expired or of another purpose is refused. */
  private async useChallenge(clientDataJSON: string, purpose: WebauthnPurpose) {
    let value: unknown;
    try {
      value = (JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown }).challenge;
    } catch {
      throw new AppError('passkey_invalid');
    }
    if (typeof value !== 'string' || !value || value.length > 200) throw new AppError('passkey_invalid');
    const row = await passkeysRepository(this.d.db).useChallenge(this.challengeHash(value), purpose);
    if (!row) throw new AppError('passkey_challenge_invalid');
    return { value, row };
  }

  private challengeHash(challenge: string) {
    return this.d.tokens.hashSecret(`webauthn:${challenge}`);
  }

  /** A person's own passkeys changed: recorded in each workspace they belong to. */
  private async auditEverywhere(tx: DbOrTx, userId: string, action: AuditAction, row: PasskeyRow) {
    for (const workspaceId of await this.d.workspaces.workspaceIdsOf(userId, tx))
      await this.d.audit.record(tx, { workspaceId, actorId: userId, action, target: userId, details: { name: row.name } });
  }
}

const present = (p: PasskeyRow): Passkey => ({
  id: p.id,
  name: p.name,
  createdAt: p.createdAt.toISOString(),
  lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
  deviceType: p.deviceType === 'multiDevice' ? 'multiDevice' : 'singleDevice',
  backedUp: p.backedUp,
});
