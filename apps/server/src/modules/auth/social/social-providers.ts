import type * as oidc from 'openid-client';
import { SOCIAL_PROVIDERS, type SocialProvider } from '@divan/core';
import { AppError } from '../../../platform/errors';
import { isLoopback, type SocialConfig } from '../../../platform/social-config';

/** What Diván takes of a provider's id_token. */
export type ProviderClaims = {
  subject: string;
  /** Lower-cased; null when the provider gave none. */
  email: string | null;
  /** Google's boolean, or Apple's string "true". */
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
};

type Log = { warn: (obj: object, msg: string) => void };

/** The client secret Apple's token endpoint wants: an ES256 JWT of the team's key, valid this long (Apple allows 6 months). */
const APPLE_SECRET_TTL_S = 30 * 86_400;
/** Renewed this long before it expires. */
const APPLE_SECRET_RENEW_S = 86_400;

/** Loaded at first use (issue 26): most servers never configure a provider. */
const openidClient = () => import('openid-client');

/**
 * The OpenID code flow with PKCE against Google and Apple (openid-client 6). Each provider's discovery document is read
 * on first use and kept; a failure (the provider unreachable, a wrong issuer) is `provider_user_error` and is retried on
 * the next sign-in. Plain http is allowed only for a loopback issuer (the tests' fake providers).
 */
export class SocialProviders {
  private readonly configs = new Map<SocialProvider, Promise<oidc.Configuration>>();
  private appleSecret?: { jwt: string; renewAt: number };

  constructor(
    private readonly social: SocialConfig | undefined,
    private readonly publicUrl: string,
    private readonly log?: Log,
  ) {}

  configured = (): SocialProvider[] => SOCIAL_PROVIDERS.filter((p) => !!this.social?.[p]);

  assertConfigured(provider: SocialProvider) {
    if (!this.social?.[provider]) throw new AppError('provider_not_configured');
  }

  /** Google answers to a page of the web app; Apple posts its answer (form_post) to the API, which sends the browser on. */
  redirectUri = (provider: SocialProvider) =>
    provider === 'google' ? `${this.publicUrl}/auth/google/callback` : `${this.publicUrl}/api/v1/realms/therapists/login/apple/callback`;

  /**
   * A new authorization at the provider: its URL, and the state, nonce and PKCE verifier (S256) the caller keeps until the
   * answer comes back.
   */
  async authorization(provider: SocialProvider): Promise<{ url: string; state: string; nonce: string; codeVerifier: string }> {
    const config = await this.configuration(provider);
    const lib = await openidClient();
    const state = lib.randomState();
    const nonce = lib.randomNonce();
    const codeVerifier = lib.randomPKCECodeVerifier();
    const p = { state, nonce, codeChallenge: await lib.calculatePKCECodeChallenge(codeVerifier) };
    const common = {
      redirect_uri: this.redirectUri(provider),
      response_type: 'code',
      state: p.state,
      nonce: p.nonce,
      code_challenge: p.codeChallenge,
      code_challenge_method: 'S256',
    };
    const specific: Record<string, string> =
      provider === 'google'
        ? { scope: 'openid email profile', prompt: 'select_account' }
        : // Apple: the name and email are asked for by these scopes; the name comes once, posted beside the code.
          { scope: 'name email', response_mode: 'form_post' };
    return { url: lib.buildAuthorizationUrl(config, { ...common, ...specific }).href, state, nonce, codeVerifier };
  }

  /**
   * Exchanges the code (with the PKCE verifier, the expected state and nonce) and reads the id_token. A code already used,
   * minted for another redirect_uri or client, or a token that does not verify, is `provider_user_error`.
   */
  async exchange(
    provider: SocialProvider,
    p: { code: string; state: string; codeVerifier: string; nonce: string; appleUser?: string },
  ): Promise<ProviderClaims> {
    const config = await this.configuration(provider);
    const lib = await openidClient();
    if (provider === 'apple') await this.renewAppleSecret();
    const current = new URL(this.redirectUri(provider));
    current.searchParams.set('code', p.code);
    current.searchParams.set('state', p.state);
    // The state is bound to this provider when stored, so the issuer that answered is the one asked (RFC 9207's check).
    if (config.serverMetadata().authorization_response_iss_parameter_supported)
      current.searchParams.set('iss', config.serverMetadata().issuer);
    let claims: oidc.IDToken | undefined;
    try {
      const tokens = await lib.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: p.codeVerifier,
        expectedState: p.state,
        expectedNonce: p.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (err) {
      this.log?.warn({ err, provider }, 'social sign-in: the code exchange failed');
      throw new AppError('provider_user_error');
    }
    if (!claims?.sub) throw new AppError('provider_user_error');
    const email = typeof claims.email === 'string' && claims.email.trim() ? claims.email.trim().toLowerCase() : null;
    const verified = claims.email_verified === true || claims.email_verified === 'true';
    const names = provider === 'google' ? googleNames(claims) : appleNames(p.appleUser);
    return { subject: claims.sub, email, emailVerified: verified, ...names };
  }

  private configuration(provider: SocialProvider): Promise<oidc.Configuration> {
    let found = this.configs.get(provider);
    if (!found) {
      found = this.discover(provider).catch((err: unknown) => {
        this.configs.delete(provider);
        this.log?.warn({ err, provider }, 'social sign-in: the discovery document could not be read');
        throw new AppError('provider_user_error');
      });
      this.configs.set(provider, found);
    }
    return found;
  }

  private async discover(provider: SocialProvider): Promise<oidc.Configuration> {
    const settings = this.social?.[provider];
    if (!settings) throw new AppError('provider_not_configured');
    const lib = await openidClient();
    const issuer = new URL(settings.issuer);
    const options = { execute: isLoopback(issuer) ? [lib.allowInsecureRequests] : [], timeout: 10 };
    if (provider === 'google') {
      const google = this.social!.google!;
      return lib.discovery(issuer, google.clientId, undefined, lib.ClientSecretPost(google.clientSecret), options);
    }
    const apple = this.social!.apple!;
    // client_secret_post with the current ES256 JWT (renewed before each exchange, so the sync callback only reads it).
    const auth: oidc.ClientAuth = (_as, _client, body) => {
      body.set('client_id', apple.clientId);
      body.set('client_secret', this.appleSecret!.jwt);
    };
    return lib.discovery(issuer, apple.clientId, undefined, auth, options);
  }

  private async renewAppleSecret() {
    const now = Math.floor(Date.now() / 1000);
    if (this.appleSecret && this.appleSecret.renewAt > now) return;
    const apple = this.social!.apple!;
    try {
      const { importPKCS8, SignJWT } = await import('jose');
      const key = await importPKCS8(apple.privateKey, 'ES256');
      const jwt = await new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', kid: apple.keyId })
        .setIssuer(apple.teamId)
        .setSubject(apple.clientId)
        .setAudience(apple.issuer)
        .setIssuedAt(now)
        .setExpirationTime(now + APPLE_SECRET_TTL_S)
        .sign(key);
      this.appleSecret = { jwt, renewAt: now + APPLE_SECRET_TTL_S - APPLE_SECRET_RENEW_S };
    } catch (err) {
      this.log?.warn({ err }, 'social sign-in: the Apple client secret could not be signed');
      throw new AppError('provider_user_error');
    }
  }
}

const text = (v: unknown, max = 100) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : null);

function googleNames(claims: oidc.IDToken) {
  const firstName = text(claims.given_name) ?? text(claims.name);
  return { firstName, lastName: text(claims.family_name) };
}

/** Apple's `user` form field (first authorization only): `{"name":{"firstName","lastName"},"email"}`; anything else is no name. */
export function appleNames(user: string | undefined): { firstName: string | null; lastName: string | null } {
  if (!user) return { firstName: null, lastName: null };
  try {
    const parsed = JSON.parse(user) as { name?: { firstName?: unknown; lastName?: unknown } } | null;
    return { firstName: text(parsed?.name?.firstName), lastName: text(parsed?.name?.lastName) };
  } catch {
    return { firstName: null, lastName: null };
  }
}
