import { errorMessage } from '@divan/core';
import { useAuthStore, type SignOutReason } from '@/stores/auth-store';
import { deviceInfo } from './device-info';
import { ApiError, http, isApiError } from './http';
import { isAccessTokenExpiring } from './jwt';
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

/** Exchanges the refresh token for a new access token; concurrent callers share one request. */
export const refreshSession = singleFlight(async (): Promise<string> => {
  const { refreshToken } = useAuthStore.getState();
  if (!refreshToken) {
    endLocalSession('expired');
    throw new ApiError('session_not_found', errorMessage('session_not_found'), 401);
  }
  try {
    const res = await http<{ accessToken: string; refreshToken?: string }>('/realms/therapists/token', {
      query: deviceInfo,
      bearer: refreshToken,
    });
    // The user may have signed out while the refresh was in flight: don't resurrect the session.
    if (useAuthStore.getState().refreshToken !== refreshToken) {
      throw new ApiError('session_not_found', errorMessage('session_not_found'), 401);
    }
    useAuthStore.getState().setTokens(res.accessToken, res.refreshToken);
    return res.accessToken;
  } catch (error) {
    if (isApiError(error) && error.code === 'session_not_found') endLocalSession('expired');
    throw error;
  }
});

/** A usable access token, refreshed first when missing or expiring within 30 s. */
export async function getAccessToken(): Promise<string> {
  const { accessToken } = useAuthStore.getState();
  if (accessToken && !isAccessTokenExpiring(accessToken)) return accessToken;
  return refreshSession();
}
