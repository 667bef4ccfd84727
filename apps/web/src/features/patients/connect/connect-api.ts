import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PatientConnectStatus } from '@divan/core';
import { api } from '@/lib/api-client';
import { patientKeys, patientPath } from '../api/keys';

/** The patient file's connection to the patient's own account (issue 15). */
const connectKey = (wid: string, pid: string) => [...patientKeys.detail(wid, pid), 'connect'] as const;
const connectPath = (wid: string, pid: string) => `${patientPath(wid, pid)}/connect`;

export const useConnectStatus = (wid: string, pid: string) =>
  useQuery({ queryKey: connectKey(wid, pid), queryFn: ({ signal }) => api<PatientConnectStatus>(connectPath(wid, pid), { signal }) });

export function useInviteToConnect(wid: string, pid: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => api<PatientConnectStatus>(connectPath(wid, pid), { method: 'POST', body: { email } }),
    onSuccess: (status) => qc.setQueryData(connectKey(wid, pid), status),
  });
}

export function useDisconnect(wid: string, pid: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<null>(connectPath(wid, pid), { method: 'DELETE' }),
    onSuccess: () => qc.setQueryData<PatientConnectStatus>(connectKey(wid, pid), { status: 'not_invited' }),
  });
}
