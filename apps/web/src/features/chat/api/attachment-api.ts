import type { PatientDocument } from '@divan/core';
import { api } from '@/lib/api-client';
import { uploadWithProgress } from '@/lib/file-transfer';

/**
 * A file attached from the composer is a patient document: uploaded through the documents API
 * (multipart, with progress: fetch has none, XHR does), shared with the patient by the server when
 * the message goes, deleted when taken off before sending.
 */
const documents = (wid: string, pid: string) => `/workspaces/${wid}/patients/${pid}/documents`;

export function uploadAttachment(
  wid: string,
  pid: string,
  file: File,
  { onProgress, signal }: { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
) {
  const body = new FormData();
  body.append('file', file);
  return uploadWithProgress<PatientDocument>(documents(wid, pid), body, { onProgress, signal });
}

export const deleteAttachment = (wid: string, pid: string, documentId: string) =>
  api<null>(`${documents(wid, pid)}/${documentId}`, { method: 'DELETE' });
