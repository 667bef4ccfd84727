import {
  SOCIAL_LINK_TTL_MS,
  SOCIAL_PROVIDER_LABELS,
  SOCIAL_STATE_TTL_MS,
  isPersonName,
  type DeviceInfo,
  type SocialLinkBody,
  type SocialLinkResponse,
  type SocialLoginBody,
  type TherapistLoginChallenge,
  type SocialLoginResponse,
  type SocialProvider,
} from '@divan/core';
import type { Db, DbOrTx } from '../../../platform/db/database';
import { AppError } from '../../../platform/errors';
import type { Mailer } from '../../../platform/mail/mailer';
import type { TokenService } from '../../../platform/auth/tokens';
import type { RateLimiter } from '../../../platform/http/rate-limiter';
import type { UserRow, UsersService } from '../../users/users.service';
import type { SessionContext } from '../auth.repository';
import type { DeviceSessions } from '../device-sessions';
import { isUuid, type CodeChallenges } from '../code-challenges';
import { loginCodeMail } from '../auth.mails';
import type { ProviderClaims, SocialProviders } from './social-providers';
import { socialRepository, type IdentityRow, type StatePurpose } from './social.repository';

export type SocialDeps = {
  db: Db;
  users: UsersService;
  tokens: TokenService;
  mailer: Mailer;
  emailLimiter: RateLimiter;
  providers: SocialProviders;
  sessions: DeviceSessions;
  codes: CodeChallenges;
  /** The sign-up's hook (the personal workspace, a colleague's code), in the transaction that creates the account. */
  onUserCreated?: (tx: DbOrTx, user: UserRow, signUp: { referralCode: string | null }) => Promise<unknown>;
  /** Refuses a colleague's code no one owns (`referral_code_not_found`), before the provider is asked anything. */
  checkReferralCode?: (code: string) => Promise<void>;
  /** Issue 32: an account with a second factor answers it after the provider too (a `second_factor` challenge). */
  hasSecondFactor?: (userId: string) => Promise<boolean>;
  secondFactorChallenge?: (userId: string) => Promise<TherapistLoginChallenge | undefined>;
};

type SignedIn = Extract<SocialLoginResponse, { kind: 'signed_in' }>;
type SecondStep = Extract<SocialLoginResponse, { kind: 'second_factor' }>;

/**
 * Sign in or up with Google or Apple (spec §7 `POST /realms/therapists/login/{provider}`). An identity is
 * `(provider, subject)`: a known one signs its user in; an unknown one whose verified email is a Diván account's is linked
 * only once that account's mailed code is typed (never on the email alone); otherwise a new account is made, confirmed.
 */
export class SocialSignIn {
  constructor(private readonly d: SocialDeps) {}

  providers = () => this.d.providers.configured();

  /** Starts an authorization: the state (kept as its HMAC), nonce and PKCE verifier are stored for SOCIAL_STATE_TTL_MS. */
  async start(provider: SocialProvider, p: { purpose: StatePurpose; userId?: string; referralCode?: string | null }) {
    this.d.providers.assertConfigured(provider);
    // A wrong colleague's code is said now, as the email sign-up says it, not after the provider's pages.
    if (p.purpose === 'signup' && p.referralCode) await this.d.checkReferralCode?.(p.referralCode);
    // The provider's document first: when it cannot be read nothing is stored.
    const started = await this.d.providers.authorization(provider);
    await socialRepository(this.d.db).insertState({
      stateHash: this.d.tokens.hashSecret(started.state),
      provider,
      purpose: p.purpose,
      userId: p.userId ?? null,
      codeVerifier: started.codeVerifier,
      nonce: started.nonce,
      referralCode: p.purpose === 'signup' ? (p.referralCode ?? null) : null,
      expiresAt: new Date(Date.now() + SOCIAL_STATE_TTL_MS),
    });
    return { url: started.url };
  }

  /** The provider's answer: its state consumed once (`provider_state_invalid` otherwise), then its code exchanged. */
  async answer(
    provider: SocialProvider,
    p: { code: string; state: string; user?: string },
    want: { kind: 'login' } | { kind: 'link'; userId: string },
  ) {
    this.d.providers.assertConfigured(provider);
    const started = await socialRepository(this.d.db).consumeState(this.d.tokens.hashSecret(p.state), provider, want);
    if (!started) throw new AppError('provider_state_invalid');
    const claims = await this.d.providers.exchange(provider, {
      code: p.code,
      state: p.state,
      codeVerifier: started.codeVerifier,
      nonce: started.nonce,
      appleUser: p.user,
    });
    return { started, claims };
  }

  async login(provider: SocialProvider, body: SocialLoginBody, device: DeviceInfo, ctx: SessionContext): Promise<SocialLoginResponse> {
    const { started, claims } = await this.answer(provider, body, { kind: 'login' });
    const known = await socialRepository(this.d.db).findIdentity(provider, claims.subject);
    if (known) return this.signInWith(known, claims, device, ctx);
    if (!claims.email) throw new AppError('provider_user_error');
    if (!claims.emailVerified) throw new AppError('provider_email_not_verified');
    const existing = await this.d.users.findByEmail(claims.email);
    if (existing) return this.requireLink(existing, provider, claims);
    const created = await this.createAccount(provider, claims, started.referralCode, device, ctx);
    // Another sign-up took the email meanwhile: that account is proved like any existing one.
    if (created) return created;
    const taken = await this.d.users.findByEmail(claims.email);
    if (!taken) throw new AppError('provider_user_error');
    return this.requireLink(taken, provider, claims);
  }

  /** The code mailed to the existing account: checked (attempts limited as for a login), then the identity linked, once. */
  async confirmLink(provider: SocialProvider, body: SocialLinkBody, device: DeviceInfo, ctx: SessionContext): Promise<SocialLinkResponse> {
    this.d.providers.assertConfigured(provider);
    const repo = socialRepository(this.d.db);
    const pending = isUuid(body.link) ? await repo.findPendingLink(body.link, provider) : undefined;
    if (!pending || pending.consumedAt) throw new AppError('challenge_not_found');
    if (pending.expiresAt.getTime() <= Date.now()) throw new AppError('challenge_expired');
    const found = await this.d.codes.check('therapists', pending.challengeId, body.code);
    const secondFactor = (await this.d.hasSecondFactor?.(pending.userId)) ?? false;
    const linked = await this.d.db.transaction(async (tx) => {
      await this.d.codes.consume(tx, found.id);
      const txRepo = socialRepository(tx);
      if (!(await txRepo.consumePendingLink(pending.id))) throw new AppError('challenge_not_found');
      let user = await this.d.users.findById(pending.userId, tx);
      if (!user) throw new AppError('user_not_found');
      const identity = { userId: user.id, provider, subject: pending.subject, email: pending.email };
      if (!(await txRepo.insertIdentity(identity))) {
        const other = await txRepo.findIdentity(provider, pending.subject);
        if (other?.userId !== user.id) throw new AppError('identity_already_linked');
        await txRepo.touchIdentity(other.id, pending.email);
      }
      // Never confirmed: the code has just proved the address, and a password set by someone who never did is dropped.
      if (!user.emailVerifiedAt) user = (await this.d.users.claimUnverified(user.id, tx))!;
      if (secondFactor) return null;
      return { kind: 'signed_in' as const, created: false, ...(await this.d.sessions.start(tx, user, device, ctx)) };
    });
    return linked ?? (await this.secondStep(pending.userId));
  }

  /** The second step of an account with a second factor, after its provider. */
  private async secondStep(userId: string): Promise<SecondStep> {
    const challenge = await this.d.secondFactorChallenge?.(userId);
    if (!challenge) throw new AppError('provider_user_error');
    return { kind: 'second_factor', ...challenge };
  }

  private async signInWith(
    identity: IdentityRow,
    claims: ProviderClaims,
    device: DeviceInfo,
    ctx: SessionContext,
  ): Promise<SignedIn | SecondStep> {
    const secondFactor = (await this.d.hasSecondFactor?.(identity.userId)) ?? false;
    const signedIn = await this.d.db.transaction(async (tx) => {
      const user = await this.d.users.findById(identity.userId, tx);
      if (!user) throw new AppError('user_not_found');
      await socialRepository(tx).touchIdentity(identity.id, claims.email);
      if (secondFactor) return null;
      return { kind: 'signed_in' as const, created: false, ...(await this.d.sessions.start(tx, user, device, ctx)) };
    });
    return signedIn ?? (await this.secondStep(identity.userId));
  }

  /** A pending link and a login code for the existing account, mailed through the outbox in the same transaction. */
  private async requireLink(user: UserRow, provider: SocialProvider, claims: ProviderClaims): Promise<SocialLoginResponse> {
    await this.d.emailLimiter.hit(user.email);
    return this.d.db.transaction(async (tx) => {
      await this.d.users.lock(user.id, tx);
      const issued = await this.d.codes.issue(tx, { realm: 'therapists', id: user.id });
      const link = await socialRepository(tx).insertPendingLink({
        userId: user.id,
        provider,
        subject: claims.subject,
        email: claims.email,
        challengeId: issued.id,
        expiresAt: new Date(Date.now() + SOCIAL_LINK_TTL_MS),
      });
      const mail = loginCodeMail(user.email, user.firstName, issued.code, { provider: SOCIAL_PROVIDER_LABELS[provider] });
      await this.d.mailer.send(mail, { tx, purpose: 'login', key: `login:${issued.id}` });
      // The code expires first: that is the time the person has.
      const expiresAt = Math.min(issued.expiresAt.getTime(), link.expiresAt.getTime());
      return { kind: 'link_required' as const, link: link.id, email: user.email, provider, expiresAt: new Date(expiresAt).toISOString() };
    });
  }

  /** Undefined when the email was taken meanwhile (the caller then asks for that account's code). */
  private async createAccount(
    provider: SocialProvider,
    claims: ProviderClaims,
    referralCode: string | null,
    device: DeviceInfo,
    ctx: SessionContext,
  ): Promise<SignedIn | undefined> {
    const email = claims.email!;
    const firstName = personName(claims.firstName) ?? nameFromEmail(email);
    return this.d.db.transaction(async (tx) => {
      const user = await this.d.users.create(
        { email, firstName, lastName: personName(claims.lastName), passwordHash: null, emailVerifiedAt: new Date() },
        tx,
      );
      if (!user) return undefined;
      await this.d.onUserCreated?.(tx, user, { referralCode });
      if (!(await socialRepository(tx).insertIdentity({ userId: user.id, provider, subject: claims.subject, email })))
        throw new AppError('identity_already_linked');
      return { kind: 'signed_in' as const, created: true, ...(await this.d.sessions.start(tx, user, device, ctx)) };
    });
  }

  /** Started sign-ins and pending links past their time, a batch at a time (the hourly sweep). */
  sweepExpired = () => socialRepository(this.d.db).deleteExpired(500);
}

/** A provider's name, kept when it is a person's name as Diván's forms take it (letters only, at most 100). */
const personName = (name: string | null) => (name && isPersonName(name) ? name.slice(0, 100) : null);

/** No name from the provider: the email's local part («ana.garcia» → «Ana»), else «Terapeuta». */
export function nameFromEmail(email: string): string {
  const first =
    email
      .split('@')[0]!
      .split(/[^\p{L}]+/u)
      .find((w) => w.length > 1) ?? '';
  const name = first.charAt(0).toUpperCase() + first.slice(1).toLowerCase();
  return personName(name.slice(0, 100)) ?? 'Terapeuta';
}
