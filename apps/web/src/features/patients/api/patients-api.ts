import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  createPatientBody,
  deletePatientResponse,
  Member,
  Patient,
  PatientListQuery,
  PatientSummary,
  updatePatientBody,
  updateTreatmentBody,
} from '@divan/core';
import { api } from '@/lib/api-client';
import type { Query } from '@/lib/http';
import { patientKeys, patientPath, workspacePath } from './keys';

export type PatientList = {
  items: PatientSummary[];
  total: number;
  page: number;
  pageSize: number;
  /** Absent for members who may not read treatment data (PATIENT_FIELDS). */
  counts?: { active: number; paused: number; inactive: number };
};
export type CreatePatient = z.output<typeof createPatientBody>;
export type UpdatePatient = z.output<typeof updatePatientBody>;
export type UpdateTreatment = z.output<typeof updateTreatmentBody>;
export type DeleteResult = z.infer<typeof deletePatientResponse>;

export const patientListOptions = (wid: string, query: PatientListQuery) =>
  queryOptions({
    queryKey: patientKeys.list(wid, query),
    // The contract's input type leaves page/pageSize `unknown` (coerced from the URL); ours are numbers.
    queryFn: ({ signal }) => api<PatientList>(`${workspacePath(wid)}/patients`, { query: query as Query, signal }),
    // Paging and typing keep the previous page on screen instead of flashing a skeleton.
    placeholderData: keepPreviousData,
  });

export const usePatientList = (wid: string, query: PatientListQuery) => useQuery(patientListOptions(wid, query));

export const patientOptions = (wid: string, pid: string) =>
  queryOptions({
    queryKey: patientKeys.detail(wid, pid),
    queryFn: ({ signal }) => api<Patient>(patientPath(wid, pid), { signal }),
  });

export const usePatient = (wid: string, pid: string) => useQuery(patientOptions(wid, pid));

/** Members who can be assigned patients: accepted members (not pending invitations). */
export function useTherapists(wid: string, enabled: boolean) {
  return useQuery({
    queryKey: patientKeys.members(wid),
    queryFn: ({ signal }) => api<Member[]>(`${workspacePath(wid)}/members`, { signal }),
    enabled,
    staleTime: 5 * 60_000,
    select: (members) =>
      members
        .filter((m): m is Member & { userId: string } => m.kind === 'member' && m.status === 'active' && !!m.userId)
        .map((m) => ({ id: m.userId, name: [m.firstName, m.lastName].filter(Boolean).join(' ') || m.email })),
  });
}
export type Therapist = { id: string; name: string };

/** After any change to one patient: its detail is replaced and every list refetches (counts, order). */
function usePatientWrite<V>(wid: string, fn: (vars: V) => Promise<Patient>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (patient) => {
      qc.setQueryData(patientKeys.detail(wid, patient.id), patient);
      void qc.invalidateQueries({ queryKey: patientKeys.lists(wid) });
    },
  });
}

export const useCreatePatient = (wid: string) =>
  usePatientWrite(wid, (body: CreatePatient) => api<Patient>(`${workspacePath(wid)}/patients`, { method: 'POST', body }));

export const useUpdatePatient = (wid: string, pid: string) =>
  usePatientWrite(wid, (body: UpdatePatient) => api<Patient>(patientPath(wid, pid), { method: 'PATCH', body }));

export const useUpdateTreatment = (wid: string, pid: string) =>
  usePatientWrite(wid, (body: UpdateTreatment) => api<Patient>(`${patientPath(wid, pid)}/treatment`, { method: 'PUT', body }));

export const useAssignPatient = (wid: string) =>
  usePatientWrite(wid, ({ pid, therapistId }: { pid: string; therapistId: string | null }) =>
    api<Patient>(`${patientPath(wid, pid)}/assignment`, { method: 'PUT', body: { therapistId } }),
  );

export function useDeletePatient(wid: string, pid: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<DeleteResult>(patientPath(wid, pid), { method: 'DELETE' }),
    // The detail is dropped by the screen once it has left it (dropping it here would refetch a 404).
    onSuccess: () => void qc.invalidateQueries({ queryKey: patientKeys.lists(wid) }),
  });
}
