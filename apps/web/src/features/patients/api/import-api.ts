import { useMutation, useQuery } from '@tanstack/react-query';
import type { ImportCommitBody, ImportProgress, ImportUpload } from '@divan/core';
import { api } from '@/lib/api-client';
import { patientKeys, workspacePath } from './keys';
import { uploadWithProgress } from '@/lib/file-transfer';

const base = (wid: string) => `${workspacePath(wid)}/patient-imports`;
export const IMPORT_POLL_MS = 500;

export const useUploadImport = (wid: string) =>
  useMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress: (f: number) => void }) => {
      const body = new FormData();
      body.append('file', file);
      return uploadWithProgress<ImportUpload>(base(wid), body, { onProgress });
    },
  });

export const useCommitImport = (wid: string) =>
  useMutation({
    mutationFn: ({ importId, mapping }: { importId: string } & ImportCommitBody) =>
      api<{ importId: string }>(`${base(wid)}/${importId}/commit`, { method: 'POST', body: { mapping } }),
  });

export const isFinished = (p: ImportProgress | undefined) => p?.status === 'done' || p?.status === 'failed';

/** Polled every 500 ms until the import is done or failed. */
export const useImportProgress = (wid: string, importId: string | null) =>
  useQuery({
    queryKey: patientKeys.import(wid, importId ?? ''),
    queryFn: ({ signal }) => api<ImportProgress>(`${base(wid)}/${importId}`, { signal }),
    enabled: !!importId,
    refetchInterval: (q) => (isFinished(q.state.data) ? false : IMPORT_POLL_MS),
    staleTime: 0,
    gcTime: 0,
  });
