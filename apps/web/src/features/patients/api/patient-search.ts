import { useDebounced } from '@/lib/use-debounced';
import { useQuery } from '@tanstack/react-query';
import type { PatientListQuery } from '@divan/core';
import { patientListOptions } from './patients-api';

export const PATIENT_SEARCH_MIN = 2;
export const PATIENT_SEARCH_DEBOUNCE_MS = 250;
export const PATIENT_SEARCH_LIMIT = 6;

/**
 * Patients matching what is typed (name, email, phone; DNI for who reads billing data), through the
 * list API's `q`: the server decides what each member may find. Waits for a pause in the typing and
 * for two characters; `term` is the search the results belong to.
 */
export function usePatientSearch(wid: string, typed: string, enabled: boolean) {
  const term = useDebounced(typed.trim(), PATIENT_SEARCH_DEBOUNCE_MS);
  const active = enabled && term.length >= PATIENT_SEARCH_MIN;
  const query: PatientListQuery = { q: term, page: 1, pageSize: PATIENT_SEARCH_LIMIT, sort: 'lastName', dir: 'asc' };
  const result = useQuery({ ...patientListOptions(wid, query), enabled: active });
  return { ...result, term, active, settling: typed.trim() !== term };
}
