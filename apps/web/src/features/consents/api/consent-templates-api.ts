import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ConsentTemplate,
  ConsentTemplateList,
  ConsentTemplateListQuery,
  CreateConsentTemplateBody,
  ReadyMadeConsentTemplateResponse,
  UpdateConsentTemplateBody,
} from '@divan/core';
import { api } from '@/lib/api-client';
import type { Query } from '@/lib/http';
import { workspaceKey } from '@/lib/workspace-keys';

/** Every key starts with the workspace: switching workspace never shows another one's templates. */
export const consentTemplateKeys = {
  all: (wid: string) => workspaceKey(wid, 'consent-templates'),
  lists: (wid: string) => [...consentTemplateKeys.all(wid), 'list'] as const,
  list: (wid: string, query: Partial<ConsentTemplateListQuery>) => [...consentTemplateKeys.lists(wid), query] as const,
  detail: (wid: string, id: string) => [...consentTemplateKeys.all(wid), 'detail', id] as const,
  /** The ready-made templates are Diván's, the same in every workspace. */
  readyMade: ['consent-templates', 'ready-made'] as const,
};

export const templatesPath = (wid: string) => `/workspaces/${wid}/consent-templates`;
export const templatePath = (wid: string, id: string) => `${templatesPath(wid)}/${id}`;

export const useConsentTemplates = (wid: string, query: Partial<ConsentTemplateListQuery>) =>
  useQuery({
    queryKey: consentTemplateKeys.list(wid, query),
    queryFn: ({ signal }) => api<ConsentTemplateList>(templatesPath(wid), { query: query as Query, signal }),
    placeholderData: keepPreviousData,
  });

export const useConsentTemplate = (wid: string, id: string | null) =>
  useQuery({
    queryKey: consentTemplateKeys.detail(wid, id ?? ''),
    queryFn: ({ signal }) => api<ConsentTemplate>(templatePath(wid, id ?? ''), { signal }),
    enabled: !!id,
    // The editor reads it once; a refetch in the background must not look like someone else's save.
    refetchOnWindowFocus: false,
    staleTime: Infinity,
  });

export const useReadyMadeTemplates = (enabled = true) =>
  useQuery({
    queryKey: consentTemplateKeys.readyMade,
    queryFn: ({ signal }) => api<ReadyMadeConsentTemplateResponse[]>('/consent-templates/ready-made', { signal }),
    staleTime: Infinity,
    enabled,
  });

function useTemplateWrite<V>(wid: string, fn: (vars: V) => Promise<ConsentTemplate>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (t) => {
      qc.setQueryData(consentTemplateKeys.detail(wid, t.id), t);
      void qc.invalidateQueries({ queryKey: consentTemplateKeys.lists(wid) });
    },
  });
}

export const useCreateTemplate = (wid: string) =>
  useTemplateWrite(wid, (body: CreateConsentTemplateBody) => api<ConsentTemplate>(templatesPath(wid), { method: 'POST', body }));

export const useUpdateTemplate = (wid: string) =>
  useTemplateWrite(wid, ({ id, body }: { id: string; body: UpdateConsentTemplateBody }) =>
    api<ConsentTemplate>(templatePath(wid, id), { method: 'PUT', body }),
  );

export const useCopyReadyMade = (wid: string) =>
  useTemplateWrite(wid, ({ key, therapistSignature }: { key: string; therapistSignature?: string }) =>
    api<ConsentTemplate>(`${templatesPath(wid)}/from-ready-made/${encodeURIComponent(key)}`, {
      method: 'POST',
      body: therapistSignature ? { therapistSignature } : {},
    }),
  );

export function useArchiveTemplate(wid: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<null>(templatePath(wid, id), { method: 'DELETE' }),
    onSuccess: (_r, id) => {
      qc.removeQueries({ queryKey: consentTemplateKeys.detail(wid, id) });
      void qc.invalidateQueries({ queryKey: consentTemplateKeys.lists(wid) });
    },
  });
}
