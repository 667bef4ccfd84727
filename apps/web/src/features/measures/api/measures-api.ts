import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MeasureAdministration, MeasureCadence, MeasureFlags, MeasureKey, MeasureSchedule, MeasureTrend } from '@divan/core';
import { api } from '@/lib/api-client';
import { workspaceKey } from '@/lib/workspace-keys';

const base = (wid: string, pid: string) => `/workspaces/${wid}/patients/${pid}/measures`;
const keys = {
  all: (wid: string, pid: string) => workspaceKey(wid, 'measures', pid),
  list: (wid: string, pid: string) => [...keys.all(wid, pid), 'list'] as const,
  trend: (wid: string, pid: string) => [...keys.all(wid, pid), 'trend'] as const,
  schedules: (wid: string, pid: string) => [...keys.all(wid, pid), 'schedules'] as const,
};
const schedulesPath = (wid: string, pid: string) => `/workspaces/${wid}/patients/${pid}/measure-schedules`;

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
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: keys.all(wid, pid) });
      void qc.invalidateQueries({ queryKey: flagsKey(wid) });
    },
  });
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

/** The patient's measure schedules tied to sessions (active, paused and stopped). */
export const useMeasureSchedules = (wid: string, pid: string) =>
  useQuery({
    queryKey: keys.schedules(wid, pid),
    queryFn: ({ signal }) => api<MeasureSchedule[]>(schedulesPath(wid, pid), { signal }),
  });
export type ScheduleInput = { measure: MeasureKey; cadence: MeasureCadence; everyWeeks: number | null };
export const useCreateSchedule = (wid: string, pid: string) =>
  useMeasureWrite(wid, pid, (body: ScheduleInput) => api<MeasureSchedule>(schedulesPath(wid, pid), { method: 'POST', body }));
export const useUpdateSchedule = (wid: string, pid: string) =>
  useMeasureWrite(
    wid,
    pid,
    ({ id, ...body }: { id: string; cadence?: MeasureCadence; everyWeeks?: number | null; status?: 'active' | 'paused' }) =>
      api<MeasureSchedule>(`${schedulesPath(wid, pid)}/${id}`, { method: 'PATCH', body }),
  );
export const useStopSchedule = (wid: string, pid: string) =>
  useMeasureWrite(wid, pid, (id: string) => api<MeasureSchedule>(`${schedulesPath(wid, pid)}/${id}/stop`, { method: 'POST', body: {} }));

const flagsKey = (wid: string) => workspaceKey(wid, 'measure-flags');
/** The unreviewed risk flags of the member's patients (the dashboard's card); refreshed every minute. */
export const useMeasureFlags = (wid: string, enabled = true) =>
  useQuery({
    queryKey: flagsKey(wid),
    enabled,
    queryFn: ({ signal }) => api<MeasureFlags>(`/workspaces/${wid}/measure-flags`, { signal }),
    refetchInterval: 60_000,
  });
