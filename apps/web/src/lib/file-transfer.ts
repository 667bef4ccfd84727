import { APP_VERSION, errorMessage } from '@divan/core';
import { getAccessToken, refreshSession } from './auth-session';
import { filenameFromDisposition } from './content-disposition';
import { ApiError, buildUrl, isApiError, toApiError, type Query } from './http';
import { useAuthStore } from '@/stores/auth-store';

/**
 * Requests the JSON client can't make: authenticated downloads (a plain link would not carry the
 * bearer token) and uploads with progress. Same rules as `api()`: client version header, normalised
 * errors, one refresh on an expired token.
 */
export async function withToken<T>(send: (token: string) => Promise<T>): Promise<T> {
  const token = await getAccessToken();
  try {
    return await send(token);
  } catch (error) {
    if (!isApiError(error) || error.code !== 'invalid_access_token') throw error;
    return send(await refreshSession());
  }
}

export function failure(status: number, body: unknown): ApiError {
  const error = toApiError(status, body);
  if (error.code === 'outdated_client') useAuthStore.getState().setOutdatedClient(true);
  return error;
}

/**
 * Fetches a file with the session's token and hands it to the browser as a download, named as the
 * server says (or `fallbackName`). False when the server had nothing to give (204).
 */
export async function downloadFile(path: string, fallbackName: string, query?: Query): Promise<boolean> {
  const res = await withToken(async (token) => {
    let response: Response;
    try {
      response = await fetch(buildUrl(path, query), { headers: { Authorization: `Bearer ${token}`, 'X-Client-Version': APP_VERSION } });
    } catch {
      throw new ApiError('network_error', errorMessage('network_error'), 0);
    }
    if (!response.ok) throw failure(response.status, await response.json().catch(() => undefined));
    return response;
  });
  if (res.status === 204) return false;
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = filenameFromDisposition(res.headers.get('content-disposition')) ?? fallbackName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return true;
}
