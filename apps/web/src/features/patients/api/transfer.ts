import { APP_VERSION, errorMessage } from '@divan/core';
import { downloadFile, failure as fail, withToken } from '@/lib/file-transfer';
import { ApiError, buildUrl } from '@/lib/http';

/** Uploads with a progress bar (fetch has no upload progress, XHR does), under `lib/file-transfer`'s rules. */
export type UploadOptions = { onProgress?: (fraction: number) => void; signal?: AbortSignal; method?: 'POST' | 'PUT' };

export function uploadWithProgress<T>(path: string, body: FormData, { onProgress, signal, method = 'POST' }: UploadOptions = {}): Promise<T> {
  return withToken(
    (token) =>
      new Promise<T>((resolve, reject) => {
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
          else reject(fail(xhr.status, json));
        };
        xhr.onerror = () => reject(new ApiError('network_error', errorMessage('network_error'), 0));
        xhr.onabort = () => reject(new DOMException('Subida cancelada', 'AbortError'));
        signal?.addEventListener('abort', () => xhr.abort(), { once: true });
        xhr.send(body);
      }),
  );
}

export { downloadFile };
