import { APP_VERSION, errorMessage } from '@divan/core';
import { getAccessToken, refreshSession } from './auth-session';
import { filenameFromDisposition } from './content-disposition';
import { requestStepUp } from './step-up';
import { ApiError, buildUrl, isApiError, toApiError, type Query } from './http';
import { useAuthStore } from '@/stores/auth-store';

/**
 * Requests the JSON client can't make: authenticated downloads (a plain link would not carry the
 * bearer token) and uploads with progress. Same rules as `api()`: client version header, normalised
 * errors, one refresh on an expired token.
 */
export async function withToken<T>(send: (token: string) => Promise<T>): Promise<T> {
  try {
    return await sendWithToken(send);
  } catch (error) {
    // A sensitive download (a patient's whole file, issue 32): a second factor first, then once more.
    if (!isApiError(error) || error.code !== 'step_up_required' || !(await requestStepUp())) throw error;
    return sendWithToken(send);
  }
}

async function sendWithToken<T>(send: (token: string) => Promise<T>): Promise<T> {
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

/** Uploads with a progress bar (fetch has no upload progress, XHR does). */
export type UploadOptions = { onProgress?: (fraction: number) => void; signal?: AbortSignal; method?: 'POST' | 'PUT' };

export function uploadWithProgress<T>(
  path: string,
  body: FormData,
  { onProgress, signal, method = 'POST' }: UploadOptions = {},
): Promise<T> {
  return withToken(
    (token) =>
      new Promise<T>((resolve, reject) => {
        if (signal?.aborted) return reject(new DOMException('Subida cancelada', 'AbortError'));
        const xhr = new XMLHttpRequest();
        xhr.open(method, buildUrl(path));
        xhr.setRequestHeader('Authorization', `Bearer ${token}`);
        xhr.setRequestHeader('X-Client-Version', APP_VERSION);
        xhr.setRequestHeader('Accept', 'application/json');
        xhr.upload.onprogress = (e) => {
          if (e.lengthComputable && e.total > 0) onProgress?.(e.loaded / e.total);
        };
        xhr.onload = () => {
          let json: unknown;
          try {
            json = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
          } catch {
            json = undefined;
          }
          if (xhr.status >= 200 && xhr.status < 300) resolve(json as T);
          else reject(failure(xhr.status, json));
        };
        xhr.onerror = () => reject(new ApiError('network_error', errorMessage('network_error'), 0));
        xhr.onabort = () => reject(new DOMException('Subida cancelada', 'AbortError'));
        signal?.addEventListener('abort', () => xhr.abort(), { once: true });
        xhr.send(body);
      }),
  );
}
