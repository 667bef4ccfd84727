import type { AuthTokens, LoginCodeBody, ReferralInviter, SignUpBody, WebauthnOptions } from '@divan/core';
import { deviceInfo } from '@/lib/device-info';
import { http } from '@/lib/http';

const realm = '/realms/therapists';

/**
 * `method`: a mailed code (`email`), for an account with an authenticator app its code (`totp`), for an account whose
 * only second factor is a passkey, the passkey (`passkey`). `passkey`: a passkey may answer instead (issue 32).
 */
export type LoginChallenge = { challenge: string; expiresAt: string; method?: 'email' | 'totp' | 'passkey'; passkey?: boolean };

/**
 * The public auth calls (no token). They use `http` directly rather than the API client, so the
 * signed-out screens don't download the token refresh machinery (see docs/bundle-budget.md).
 */
export const authApi = {
  requestLoginCode: (body: LoginCodeBody) => http<LoginChallenge>(`${realm}/code`, { method: 'POST', body }),
  login: (body: { challenge: string; code: string }) =>
    http<AuthTokens>(`${realm}/login`, { method: 'POST', body: { ...body, ...deviceInfo } }),
  /** The second step of an account with an authenticator app: its code or a recovery code (issue 32). */
  loginSecondFactor: (body: { challenge: string; code?: string; recoveryCode?: string }) =>
    http<AuthTokens>(`${realm}/second-factor/login`, { method: 'POST', body: { ...body, ...deviceInfo } }),
  /** Signing in with a passkey alone (a discoverable credential): options without a user, then the browser's answer. */
  passkeySignInOptions: () => http<WebauthnOptions>(`${realm}/login/passkey/options`, { method: 'POST', body: {} }),
  passkeySignIn: (response: unknown) => http<AuthTokens>(`${realm}/login/passkey`, { method: 'POST', body: { response, ...deviceInfo } }),
  /** The second step answered by a passkey: options for the account of `challenge`, then the answer. */
  passkeySecondStepOptions: (challenge: string) =>
    http<WebauthnOptions>(`${realm}/second-factor/login/passkey/options`, { method: 'POST', body: { challenge } }),
  passkeySecondStep: (body: { challenge: string; response: unknown }) =>
    http<AuthTokens>(`${realm}/second-factor/login/passkey`, { method: 'POST', body: { ...body, ...deviceInfo } }),
  signUp: (body: SignUpBody) => http<{ userId: string }>(`${realm}/users`, { method: 'POST', body }),
  resendConfirmation: (email: string) => http<void>(`${realm}/signup/challenge`, { query: { email } }),
  confirmEmail: (code: string) => http<AuthTokens>(`${realm}/signup/challenge`, { method: 'POST', body: { code, ...deviceInfo } }),
  requestPasswordReset: (email: string) => http<void>(`${realm}/password/challenge`, { query: { email } }),
  /** An account with a second factor gets its second step's challenge instead of tokens (issue 32). */
  resetPassword: (body: { code: string; password: string }) =>
    http<AuthTokens | LoginChallenge>(`${realm}/password/challenge`, { method: 'POST', body: { ...body, ...deviceInfo } }),
  /** Who a colleague's invitation code belongs to (public), for the sign-up page's welcome; 404 referral_code_not_found. */
  referralInviter: (code: string, signal?: AbortSignal) => http<ReferralInviter>(`/referrals/${encodeURIComponent(code)}`, { signal }),
};
