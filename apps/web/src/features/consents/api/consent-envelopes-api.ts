import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ConsentEnvelope,
  ConsentEnvelopeList,
  ConsentEnvelopeState,
  ConsentSendCheck,
  SendConsentBody,
  SentConsent,
} from '@divan/core';
import { api } from '@/lib/api-client';
import { downloadFile } from '@/lib/file-transfer';
import type { Query } from '@/lib/http';
import { workspaceKey } from '@/lib/workspace-keys';

export type SentListQuery = { state?: ConsentEnvelopeState; page: number; pageSize: number };

/** Every key starts with the workspace: switching workspace never shows another one's consents. */
export const sentConsentKeys = {
  all: (wid: string) => workspaceKey(wid, 'sent-consents'),
  list: (wid: string, patientId: string | null, query: SentListQuery) =>
    [...sentConsentKeys.all(wid), 'list', patientId ?? 'all', query] as const,
};

const base = (wid: string) => `/workspaces/${wid}/consents`;

/** The workspace's sent consents, or one patient's; newest first. */
export const useSentConsents = (wid: string, patientId: string | null, query: SentListQuery, enabled = true) =>
  useQuery({
    queryKey: sentConsentKeys.list(wid, patientId, query),
    queryFn: ({ signal }) =>
      api<ConsentEnvelopeList>(patientId ? `/workspaces/${wid}/patients/${patientId}/consents` : base(wid), {
        query: query as Query,
        signal,
      }),
    placeholderData: keepPreviousData,
    enabled,
  });

export function useSendConsent(wid: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SendConsentBody) => api<SentConsent>(base(wid), { method: 'POST', body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: sentConsentKeys.all(wid) }),
  });
}

/** What sending this template to this patient would leave blank (a registration number the sender has not given): the dialog warns before sending. */
export const useConsentSendCheck = (wid: string, patientId: string | null, templateId: string | null) =>
  useQuery({
    queryKey: [...sentConsentKeys.all(wid), 'check', patientId ?? '', templateId ?? ''],
    queryFn: ({ signal }) => api<ConsentSendCheck>(`/workspaces/${wid}/patients/${patientId}/consents/check/${templateId}`, { signal }),
    enabled: !!patientId && !!templateId,
  });

/**
 * The sender's registration number, filled from the sending dialog: saved to their profile (`/me`, the
 * profile's own call) so every document after this one has it too; the check and the profile reload.
 */
export function useSaveRegistrationNumber(wid: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (registrationNumber: string) => api<unknown>('/me', { method: 'PATCH', body: { registrationNumber } }),
    onSuccess: () =>
      Promise.all([qc.invalidateQueries({ queryKey: [...sentConsentKeys.all(wid), 'check'] }), qc.invalidateQueries({ queryKey: ['me'] })]),
  });
}

export function useRevokeConsent(wid: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<ConsentEnvelope>(`${base(wid)}/${id}/revoke`, { method: 'POST' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: sentConsentKeys.all(wid) }),
  });
}

/** The sealed PDF of a signed consent. */
export const downloadSignedConsent = (wid: string, e: Pick<ConsentEnvelope, 'id' | 'documentTitle'>) =>
  downloadFile(`${base(wid)}/${e.id}/pdf`, `${e.documentTitle}.pdf`);

/** A patient's birthdate and email, to say who signs before sending (the patients API, read-only). */
export type SendTarget = { id: string; name: string; email: string | null; birthdate: string | null };
export const usePatientForSending = (wid: string, patientId: string | null) =>
  useQuery({
    queryKey: workspaceKey(wid, 'patients', 'for-consent', patientId ?? ''),
    queryFn: ({ signal }) =>
      api<{ id: string; firstName: string; lastName: string | null; email: string | null; birthdate: string | null }>(
        `/workspaces/${wid}/patients/${patientId}`,
        { signal },
      ).then((p): SendTarget => ({
        id: p.id,
        name: [p.firstName, p.lastName].filter(Boolean).join(' '),
        email: p.email,
        birthdate: p.birthdate,
      })),
    enabled: !!patientId,
    staleTime: 60_000,
  });
