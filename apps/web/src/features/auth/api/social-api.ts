import type { SocialForm, SocialLoginResponse, SocialProvider } from '@divan/core';
import { deviceInfo } from '@/lib/device-info';
import { http } from '@/lib/http';

const realm = '/realms/therapists';

/** What the provider sent back to the callback page (`?code&state`, and Apple's `user` on the first consent only). */
export type ProviderAnswer = { code: string; state: string; user?: string };

/**
 * Google and Apple sign-in, signed out (no token): `http` directly, like the other public auth calls, so the
 * sign-in page stays small (apps/web/docs/bundle-budget.md).
 */
export const socialApi = {
  /** The providers this server is configured for: none, and the buttons are not drawn. */
  providers: (signal?: AbortSignal) => http<{ providers: SocialProvider[] }>(`${realm}/login/providers`, { signal }),
  authorize: (provider: SocialProvider, body: { form: SocialForm; referralCode?: string }) =>
    http<{ url: string }>(`${realm}/login/${provider}/authorize`, { method: 'POST', body }),
  login: (provider: SocialProvider, body: ProviderAnswer & { form: SocialForm }) =>
    http<SocialLoginResponse>(`${realm}/login/${provider}`, { method: 'POST', body: { ...body, ...deviceInfo } }),
  /** The provider's email belongs to an existing account: its mailed code proves it, and links the identity. */
  link: (provider: SocialProvider, body: { link: string; code: string }) =>
    http<Extract<SocialLoginResponse, { kind: 'signed_in' | 'second_factor' }>>(`${realm}/login/${provider}/link`, {
      method: 'POST',
      body: { ...body, ...deviceInfo },
    }),
};
