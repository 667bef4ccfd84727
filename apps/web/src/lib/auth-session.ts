import { genericMessage } from '@divan/core';
import { useAuthStore, type SignOutReason } from '@/stores/auth-store';
import { deviceInfo } from './device-info';
import { ApiError, http, isApiError } from './http';
import { isAccessTokenExpiring } from './jwt';
import { browserRefreshLock, type RefreshLock } from './refresh-lock';
import { singleFlight } from './single-flight';

const sessionEndListeners = new Set<() => void>();

/** Lets modules that hold user data (the query cache) forget it on sign-out without this file importing them. */
export function onSessionEnd(listener: () => void): () => void {
  sessionEndListeners.add(listener);
  return () => sessionEndListeners.delete(listener);
}

/** Forgets the session in this browser: tokens, profile and every cached query (spec §4). */
export function endLocalSession(reason: SignOutReason): void {
  useAuthStore.getState().clear(reason);
  sessionEndListeners.forEach((listener) => listener());
}

// Made at start-up, so that without Web Locks this tab hears the other tabs' notes from the first one.
const refreshLock: RefreshLock = browserRefreshLock();

/**
 * Exchanges the refresh token for a new access token; concurrent callers of this tab share one request,
 * and tabs take turns (refresh-lock.ts): a tab that waited uses the tokens the previous one stored.
 */
export const refreshSession = singleFlight(async (): Promise<string> => {
  const stale = useAuthStore.getState().accessToken;
  return refreshLock(async (waited) => {
    // Tokens are kept in localStorage: the tab that held the lock may have rotated them, and its write
    // can reach this tab's copy a moment after the lock does.
    const arrival = waited ? nextAuthWrite(1_000) : undefined;
    const stored = (await storedFresh(stale)) ?? (arrival && (await arrival.promise, await storedFresh(stale)));
    arrival?.cancel();
    return stored || exchange(useAuthStore.getState().refreshToken);
  });
});

/** The stored access token, if it is another than `stale` and not expiring. */
async function storedFresh(stale: string | null): Promise<string | null> {
  await useAuthStore.persist.rehydrate();
  const { accessToken } = useAuthStore.getState();
  return accessToken && accessToken !== stale && !isAccessTokenExpiring(accessToken) ? accessToken : null;
}

/** Resolves at the next write of the tokens by another tab, or after `ms`. */
function nextAuthWrite(ms: number) {
  let cancel = () => {};
  const promise = new Promise<void>((resolve) => {
    if (typeof window === 'undefined') return resolve();
    const onStorage = (event: StorageEvent) => event.key === 'auth' && cancel();
    const timer = setTimeout(() => cancel(), ms);
    cancel = () => {
      clearTimeout(timer);
      window.removeEventListener('storage', onStorage);
      resolve();
    };
    window.addEventListener('storage', onStorage);
  });
  return { promise, cancel: () => cancel() };
}

async function exchange(refreshToken: string | null): Promise<string> {
  if (!refreshToken) {
    endLocalSession('expired');
    throw new ApiError('session_not_found', genericMessage('session_not_found'), 401);
  }
  let res: { accessToken: string; refreshToken?: string };
  try {
    res = await http<{ accessToken: string; refreshToken?: string }>('/realms/therapists/token', {
      query: deviceInfo,
      bearer: refreshToken,
    });
  } catch (error) {
    // Unless the user signed out (or in again) meanwhile: then the reason shown is theirs.
    if (isApiError(error) && error.code === 'session_not_found' && useAuthStore.getState().refreshToken === refreshToken)
      endLocalSession('expired');
    throw error;
  }
  const now = useAuthStore.getState();
  if (now.refreshToken !== refreshToken) {
    // Meanwhile another tab stored newer tokens (kept: they are the same session's), or the user signed
    // out (not resurrected).
    if (now.refreshToken && now.accessToken && !isAccessTokenExpiring(now.accessToken)) return now.accessToken;
    throw new ApiError('session_not_found', genericMessage('session_not_found'), 401);
  }
  useAuthStore.getState().setTokens(res.accessToken, res.refreshToken);
  return res.accessToken;
}

/** A usable access token, refreshed first when missing or expiring within 30 s. */
export async function getAccessToken(): Promise<string> {
  const { accessToken } = useAuthStore.getState();
  if (accessToken && !isAccessTokenExpiring(accessToken)) return accessToken;
  return refreshSession();
}
