import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DocumentTag, PatientDocument, UpdateDocumentBody } from '@divan/core';
import { api } from '@/lib/api-client';
import { patientKeys, patientPath, workspacePath } from './keys';
import { downloadFile, uploadWithProgress } from '@/lib/file-transfer';

const base = (wid: string, pid: string) => `${patientPath(wid, pid)}/documents`;

export const useDocuments = (wid: string, pid: string) =>
  useQuery({
    queryKey: patientKeys.documents(wid, pid),
    queryFn: ({ signal }) => api<PatientDocument[]>(base(wid, pid), { signal }),
  });

/** The workspace's tags matching what is typed; shared by every patient's documents. */
export const useDocumentTags = (wid: string, q: string, enabled = true) =>
  useQuery({
    queryKey: patientKeys.tags(wid, q),
    queryFn: ({ signal }) => api<DocumentTag[]>(`${workspacePath(wid)}/document-tags`, { query: { q: q || undefined }, signal }),
    enabled,
    staleTime: 60_000,
  });

function useDocumentsWrite<V, T>(wid: string, pid: string, fn: (vars: V) => Promise<T>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: patientKeys.documents(wid, pid) });
      void qc.invalidateQueries({ queryKey: patientKeys.detail(wid, pid), exact: true });
      void qc.invalidateQueries({ queryKey: patientKeys.tagsAll(wid) });
    },
  });
}

export const useUploadDocument = (wid: string, pid: string) =>
  useDocumentsWrite(wid, pid, ({ file, onProgress, signal }: { file: File; onProgress?: (f: number) => void; signal?: AbortSignal }) => {
    const body = new FormData();
    body.append('file', file);
    return uploadWithProgress<PatientDocument>(base(wid, pid), body, { onProgress, signal });
  });

export const useUpdateDocument = (wid: string, pid: string) =>
  useDocumentsWrite(wid, pid, ({ id, body }: { id: string; body: UpdateDocumentBody }) =>
    api<PatientDocument>(`${base(wid, pid)}/${id}`, { method: 'PATCH', body }),
  );

export const useShareDocument = (wid: string, pid: string) =>
  useDocumentsWrite(wid, pid, ({ id, shared }: { id: string; shared: boolean }) =>
    api<PatientDocument>(`${base(wid, pid)}/${id}/sharing`, { method: 'PUT', body: { shared } }),
  );

export const useDeleteDocument = (wid: string, pid: string) =>
  useDocumentsWrite(wid, pid, (id: string) => api<null>(`${base(wid, pid)}/${id}`, { method: 'DELETE' }));

export const downloadDocument = (wid: string, pid: string, doc: PatientDocument) =>
  downloadFile(`${base(wid, pid)}/${doc.id}/download`, doc.name);
