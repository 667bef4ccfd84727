import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RecoveryCodes, SecondFactorBody, SecondFactorStatus, TotpEnrolment } from '@divan/core';
import { api } from '@/lib/api-client';

const base = '/realms/therapists/second-factor';

/** Ajustes › Seguridad › «Verificación en dos pasos» (issue 32): the authenticator app and its recovery codes. */
export const secondFactorKey = ['me', 'second-factor'] as const;

export const useSecondFactor = () =>
  useQuery({ queryKey: secondFactorKey, queryFn: ({ signal }) => api<SecondFactorStatus>(base, { signal }) });

export const secondFactorApi = {
  startTotp: () => api<TotpEnrolment>(`${base}/totp`, { method: 'POST', body: {} }),
  confirmTotp: (code: string) => api<RecoveryCodes>(`${base}/totp/confirm`, { method: 'POST', body: { code } }),
  regenerateRecoveryCodes: () => api<RecoveryCodes>(`${base}/recovery-codes`, { method: 'POST', body: {} }),
  disableTotp: () => api<void>(`${base}/totp`, { method: 'DELETE' }),
  status: () => api<SecondFactorStatus>(base),
  stepUp: (body: SecondFactorBody) => api<{ verifiedAt: string }>(`${base}/step-up`, { method: 'POST', body }),
  startEmailStepUp: () => api<{ challenge: string; expiresAt: string }>(`${base}/step-up/email`, { method: 'POST', body: {} }),
};

export function useDisableTotp() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: secondFactorApi.disableTotp,
    onSuccess: () => void qc.invalidateQueries({ queryKey: secondFactorKey }),
  });
}
