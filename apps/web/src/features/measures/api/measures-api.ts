import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MeasureAdministration, MeasureKey, MeasureTrend } from '@divan/core';
import { api } from '@/lib/api-client';
import { workspaceKey } from '@/lib/workspace-keys';

const base = (wid: string, pid: string) => `/workspaces/${wid}/patients/${pid}/measures`;
const keys = {
  all: (wid: string, pid: string) => workspaceKey(wid, 'measures', pid),
  list: (wid: string, pid: string) => [...keys.all(wid, pid), 'list'] as const,
  trend: (wid: string, pid: string) => [...keys.all(wid, pid), 'trend'] as const,
};

/**
 * A patient's administrations. While one is waiting for the patient's answer, polled every 20 s, so
 * the scored point shows within a minute of the patient sending it.
 */
export const useMeasures = (wid: string, pid: string) =>
  useQuery({
    queryKey: keys.list(wid, pid),
    queryFn: ({ signal }) => api<MeasureAdministration[]>(base(wid, pid), { signal }),
    refetchInterval: (q) => (q.state.data?.some((a) => a.status === 'sent') ? 20_000 : false),
  });

export const useMeasureTrend = (wid: string, pid: string, pending: boolean) =>
  useQuery({
    queryKey: keys.trend(wid, pid),
    queryFn: ({ signal }) => api<MeasureTrend>(`${base(wid, pid)}/trend`, { signal }),
    refetchInterval: pending ? 20_000 : false,
  });

function useMeasureWrite<V, T>(wid: string, pid: string, fn: (vars: V) => Promise<T>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => void qc.invalidateQueries({ queryKey: keys.all(wid, pid) }) });
}

export const useSendMeasure = (wid: string, pid: string) =>
  useMeasureWrite(wid, pid, (measure: MeasureKey) =>
    api<MeasureAdministration & { link: string }>(`${base(wid, pid)}/send`, { method: 'POST', body: { measure } }),
  );
export const useAdministerMeasure = (wid: string, pid: string) =>
  useMeasureWrite(wid, pid, (v: { measure: MeasureKey; answers: (number | null)[] }) =>
    api<MeasureAdministration>(`${base(wid, pid)}/administer`, { method: 'POST', body: v }),
  );
export const useCancelMeasure = (wid: string, pid: string) =>
  useMeasureWrite(wid, pid, (id: string) => api<MeasureAdministration>(`${base(wid, pid)}/${id}/cancel`, { method: 'POST', body: {} }));
export const useReviewFlag = (wid: string, pid: string) =>
  useMeasureWrite(wid, pid, (id: string) => api<MeasureAdministration>(`${base(wid, pid)}/${id}/review`, { method: 'POST', body: {} }));
