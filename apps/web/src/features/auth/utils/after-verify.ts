import { EMAIL_TOKEN_TTL_MS } from '@divan/core';
import { safeRedirect } from '@/lib/safe-redirect';

// The confirmation link the server mails is just /verify-email/{token}: where the user was heading
// (e.g. an invitation) is kept in this browser and resumed when the link is opened here.
const KEY = 'divan:after-verify';

type Pending = { email: string; to: string; at: number };

export function rememberAfterVerify(email: string, to: string | null): void {
  try {
    if (to && safeRedirect(to) === to)
      localStorage.setItem(KEY, JSON.stringify({ email: email.toLowerCase(), to, at: Date.now() } satisfies Pending));
    else localStorage.removeItem(KEY);
  } catch {
    // storage unavailable (private mode): the user lands on the dashboard instead
  }
}

/** Where to go once `email` is confirmed: the remembered page, or home. Forgets it either way. */
export function takeAfterVerify(email: string): string {
  try {
    const raw = localStorage.getItem(KEY);
    localStorage.removeItem(KEY);
    const p = raw ? (JSON.parse(raw) as Pending) : null;
    if (p && p.email === email.toLowerCase() && Date.now() - p.at < EMAIL_TOKEN_TTL_MS) return safeRedirect(p.to);
  } catch {
    // unreadable: go home
  }
  return '/';
}
