import { APP_VERSION, type ChatAttachment } from '@divan/core';
import { toFailure } from './errors';
import { accessToken, refresh } from './session';

function post(
  fileId: string,
  file: File,
  bearer: string,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    // XMLHttpRequest, not fetch: only it reports the upload's progress.
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/v1/patient/files/${encodeURIComponent(fileId)}/chat/attachments`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('X-Client-Version', APP_VERSION);
    xhr.setRequestHeader('Authorization', `Bearer ${bearer}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(toFailure(0, null));
    xhr.onabort = () => reject(new DOMException('Cancelado', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

/** Uploads a file for the chat of `fileId` (kept as a document of the file), reporting progress 0…1. */
export async function uploadAttachment(
  fileId: string,
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<ChatAttachment> {
  let res = await post(fileId, file, await accessToken(), onProgress, signal);
  if (res.status === 401 && (res.body as { code?: string } | null)?.code === 'invalid_access_token')
    res = await post(fileId, file, await refresh(), onProgress, signal);
  if (res.status < 200 || res.status >= 300) throw toFailure(res.status, res.body);
  return res.body as ChatAttachment;
}
