import { useAuthStore } from '@/stores/auth-store';
import { endLocalSession, getAccessToken, refreshSession } from './auth-session';
import { http, isApiError, type HttpRequest } from './http';
import { isAccessTokenExpiring } from './jwt';
import { requestStepUp } from './step-up';

export { ApiError, isApiError } from './http';

/**
 * Which credential a call carries: the access token (default), the refresh token (token refresh, sign-out,
 * password change) or none (sign-in, sign-up and other public calls).
 */
export type AuthMode = 'access' | 'refresh' | 'none';
export type ApiRequest = Omit<HttpRequest, 'bearer'> & { auth?: AuthMode };

/**
 * The one way features talk to the API under /api/v1. A sensitive action refused with `step_up_required` asks for a
 * second factor (lib/step-up) and is sent again once.
 */
export async function api<T>(path: string, request: ApiRequest = {}): Promise<T> {
  try {
    return await call<T>(path, request);
  } catch (error) {
    if (!isApiError(error) || error.code !== 'step_up_required' || !(await requestStepUp())) throw error;
    return call<T>(path, request);
  }
}

async function call<T>(path: string, { auth = 'access', ...req }: ApiRequest): Promise<T> {
  if (auth === 'none') return http<T>(path, req);

  if (auth === 'refresh') {
    try {
      return await http<T>(path, { ...req, bearer: useAuthStore.getState().refreshToken });
    } catch (error) {
      if (isApiError(error) && error.code === 'session_not_found') endLocalSession('expired');
      throw error;
    }
  }

  const token = await getAccessToken();
  try {
    return await http<T>(path, { ...req, bearer: token });
  } catch (error) {
    if (!isApiError(error) || error.code !== 'invalid_access_token') throw error;
    // Refresh once and retry; if another call already rotated the token, use that one instead.
    const current = useAuthStore.getState().accessToken;
    const fresh = current && current !== token && !isAccessTokenExpiring(current) ? current : await refreshSession();
    return http<T>(path, { ...req, bearer: fresh });
  }
}
