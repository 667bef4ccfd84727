import type { SocialProvider } from '@divan/core';

/**
 * What a trip to Google or Apple was for, kept in this tab while the browser is away: signing in, signing up
 * (both `form`s of the spec) or linking another provider from Ajustes › Seguridad. The callback page reads it
 * once; the server's single-use `state` is what actually ties the answer to the request.
 */
export type SocialIntent = {
  kind: 'login' | 'signup' | 'link';
  provider: SocialProvider;
  /** Where to go once signed in (an invitation), same-site only. */
  redirect?: string | null;
  at: number;
};

const KEY = 'divan:social-intent';
/** As long as the server keeps a started sign-in (SOCIAL_STATE_TTL_MS), without importing the contracts. */
const TTL_MS = 10 * 60_000;

export function rememberSocialIntent(intent: Omit<SocialIntent, 'at'>): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ ...intent, at: Date.now() } satisfies SocialIntent));
  } catch {
    // storage unavailable: the callback treats the answer as a sign-in
  }
}

/** The intent for `provider`, if one was started here and not too long ago. Forgets it either way. */
export function takeSocialIntent(provider: SocialProvider): SocialIntent | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    const intent = raw ? (JSON.parse(raw) as SocialIntent) : null;
    if (intent && intent.provider === provider && Date.now() - intent.at < TTL_MS) return intent;
  } catch {
    // unreadable: none
  }
  return null;
}
