import * as oidc from 'openid-client';
import type { GoogleCalendarConfig } from '../../platform/config';
import { AppError } from '../../platform/errors';

/** What Google Calendar is asked for: the events of calendars (the Diván one) and reading the others' busy times. */
export const GOOGLE_CALENDAR_SCOPE = 'https://www.googleapis.com/auth/calendar.events https://www.googleapis.com/auth/calendar.readonly';

export type GoogleTokens = { accessToken: string; refreshToken?: string; expiresAt: Date };

/**
 * Google's OAuth 2.0 for Calendar (code flow + PKCE + state, offline access) through openid-client 6,
 * from static metadata (Google's endpoints, or a fake's in tests): no discovery request at start-up.
 */
export class GoogleOAuth {
  private readonly config: oidc.Configuration;

  constructor(
    private readonly c: GoogleCalendarConfig,
    private readonly redirectUri: string,
  ) {
    this.config = new oidc.Configuration(
      {
        issuer: c.oauthBase,
        authorization_endpoint: `${c.oauthBase}/o/oauth2/v2/auth`,
        token_endpoint: `${c.tokenBase}/token`,
        revocation_endpoint: `${c.tokenBase}/revoke`,
      },
      c.clientId,
      c.clientSecret,
    );
    // A fake on loopback (tests, a local rig) answers over plain http.
    if ([c.oauthBase, c.tokenBase].some((u) => u.startsWith('http://'))) oidc.allowInsecureRequests(this.config);
  }

  /** A new round trip: the state and verifier to keep, and the consent page's URL. */
  async start(): Promise<{ state: string; codeVerifier: string; url: string }> {
    const state = oidc.randomState();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(this.config, {
      redirect_uri: this.redirectUri,
      scope: GOOGLE_CALENDAR_SCOPE,
      response_type: 'code',
      state,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      access_type: 'offline',
      prompt: 'consent',
      include_granted_scopes: 'true',
    });
    return { state, codeVerifier, url: url.href };
  }

  /** The code Google gave the callback, for tokens. A refused code (used, expired, another verifier) is Google's refusal, never a 500. */
  async exchange(code: string, state: string, codeVerifier: string): Promise<GoogleTokens> {
    const current = new URL(this.redirectUri);
    current.searchParams.set('code', code);
    current.searchParams.set('state', state);
    try {
      const t = await oidc.authorizationCodeGrant(this.config, current, { pkceCodeVerifier: codeVerifier, expectedState: state });
      return toTokens(t);
    } catch (err) {
      throw oauthFailure(err);
    }
  }

  /** A fresh access token from the refresh token; `revoked` when Google no longer accepts it. */
  async refresh(refreshToken: string): Promise<GoogleTokens | 'revoked'> {
    try {
      return toTokens(await oidc.refreshTokenGrant(this.config, refreshToken));
    } catch (err) {
      if (err instanceof oidc.ResponseBodyError && err.error === 'invalid_grant') return 'revoked';
      throw err;
    }
  }

  /** Revokes the grant at Google (the refresh token revokes every token of it). Already revoked is done. */
  async revoke(refreshToken: string): Promise<void> {
    try {
      await oidc.tokenRevocation(this.config, refreshToken);
    } catch (err) {
      if (err instanceof oidc.ResponseBodyError) return;
      throw err;
    }
  }
}

const toTokens = (t: oidc.TokenEndpointResponse): GoogleTokens => ({
  accessToken: t.access_token,
  refreshToken: t.refresh_token,
  expiresAt: new Date(Date.now() + (t.expires_in ?? 3600) * 1000),
});

function oauthFailure(err: unknown): AppError {
  if (err instanceof oidc.ResponseBodyError || err instanceof oidc.AuthorizationResponseError) return new AppError('google_oauth_failed');
  return new AppError('google_calendar_unavailable');
}
