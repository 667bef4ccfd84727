import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LearningAdminPurchase, LearningAdminVideo, LearningPurchase, LearningUploadState, LearningVideoBody } from '@divan/core';
import { api } from '@/lib/api-client';
import { adminPath, adminPurchasesPath, learningKeys } from '../api/keys';

/** The staff's upload token, typed once per tab (never in localStorage: it outlives no tab). */
const TOKEN_KEY = 'divan.learning.upload-token';
export const readUploadToken = (): string => {
  try {
    return sessionStorage.getItem(TOKEN_KEY) ?? '';
  } catch {
    return '';
  }
};
export const keepUploadToken = (token: string): void => {
  try {
    if (token) sessionStorage.setItem(TOKEN_KEY, token);
    else sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    // Private mode without storage: the token lives as long as the page.
  }
};

const headers = (token: string) => ({ 'X-Upload-Token': token });

/** Every video, drafts included; read every 2 s while one is being transcoded. */
export const useAdminVideos = (token: string) =>
  useQuery({
    queryKey: [...learningKeys.admin(), token],
    queryFn: ({ signal }) => api<{ items: LearningAdminVideo[] }>(adminPath(), { signal, headers: headers(token) }),
    enabled: !!token,
    refetchInterval: (q) => (q.state.data?.items.some((v) => v.status === 'processing') ? 2_000 : false),
  });

/** Calls of the tool, each with the token. */
export const adminCalls = (token: string) => ({
  create: (body: LearningVideoBody) => api<LearningAdminVideo>(adminPath(), { method: 'POST', body, headers: headers(token) }),
  update: (id: string, body: Partial<LearningVideoBody>) =>
    api<LearningAdminVideo>(adminPath(id), { method: 'PATCH', body, headers: headers(token) }),
  icon: (id: string, file: File) => {
    const form = new FormData();
    form.append('file', file);
    return api<LearningAdminVideo>(`${adminPath(id)}/icon`, { method: 'POST', body: form, headers: headers(token) });
  },
  publish: (id: string, on: boolean) =>
    api<LearningAdminVideo>(`${adminPath(id)}/${on ? 'publish' : 'unpublish'}`, { method: 'POST', headers: headers(token) }),
  /** Begins, or resumes (same size), a file's upload: where the next piece starts. */
  begin: (id: string, file: { name: string; size: number }, signal?: AbortSignal) =>
    api<LearningUploadState>(`${adminPath(id)}/upload`, {
      method: 'POST',
      body: { fileName: file.name.slice(0, 200), size: file.size },
      headers: headers(token),
      signal,
    }),
  piece: (id: string, offset: number, piece: Blob, signal?: AbortSignal) =>
    api<LearningUploadState>(`${adminPath(id)}/upload`, {
      method: 'PUT',
      query: { offset },
      body: piece,
      headers: { ...headers(token), 'Content-Type': 'application/octet-stream' },
      signal,
    }),
});
export type AdminCalls = ReturnType<typeof adminCalls>;

/** Publish / unpublish, then the list (and the catalogue) read again. */
export function usePublish(token: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, on }: { id: string; on: boolean }) => adminCalls(token).publish(id, on),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: learningKeys.admin() });
      void qc.invalidateQueries({ queryKey: learningKeys.lists() });
    },
  });
}

/** The refunds screen: the latest 100 purchases (paid and refunded), or those whose buyer's email contains `email`. */
export const useAdminPurchases = (token: string, email: string) =>
  useQuery({
    queryKey: [...learningKeys.adminPurchases(email), token],
    queryFn: ({ signal }) =>
      api<{ items: LearningAdminPurchase[] }>(adminPurchasesPath(), {
        signal,
        query: email ? { email } : undefined,
        headers: headers(token),
      }),
    enabled: !!token,
  });

/** «Reembolsar»: the payment returned in full, the access ended, Diván's invoice rectified; the lists read again. */
export function useRefundPurchase(token: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<LearningPurchase>(adminPurchasesPath(id), { method: 'POST', headers: headers(token) }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: learningKeys.adminPurchases() });
      void qc.invalidateQueries({ queryKey: learningKeys.admin() });
    },
  });
}
