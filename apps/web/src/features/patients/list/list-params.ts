import {
  isUuid,
  PATIENT_SORTS,
  SESSION_TYPE,
  TREATMENT_MOTIVE,
  TREATMENT_STATUS,
  type PatientListQuery,
  type SessionType,
  type TreatmentMotive,
  type TreatmentStatus,
} from '@divan/core';

export const PAGE_SIZE = 50;
export type Sort = (typeof PATIENT_SORTS)[number];
export type ListState = {
  q: string;
  status: TreatmentStatus | null;
  therapist: string | null;
  sessionType: SessionType | null;
  motive: TreatmentMotive | null;
  sort: Sort;
  dir: 'asc' | 'desc';
  page: number;
};

const oneOf = <T extends string>(values: readonly T[], v: string | null): T | null =>
  v && (values as readonly string[]).includes(v) ? (v as T) : null;

/** The list's state lives in the URL (shareable, survives reload and back); anything unknown is ignored. */
export function readListState(params: URLSearchParams): ListState {
  const therapist = params.get('therapist');
  const page = Number(params.get('page'));
  return {
    q: (params.get('q') ?? '').slice(0, 100),
    status: oneOf(TREATMENT_STATUS.values, params.get('status')),
    therapist: therapist === 'unassigned' || isUuid(therapist) ? therapist : null,
    sessionType: oneOf(SESSION_TYPE.values, params.get('sessionType')),
    motive: oneOf(TREATMENT_MOTIVE.values, params.get('motive')),
    sort: oneOf(PATIENT_SORTS, params.get('sort')) ?? 'lastName',
    dir: params.get('dir') === 'desc' ? 'desc' : 'asc',
    page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1,
  };
}

/** Only what differs from the defaults is written, so a clean list has a clean URL. */
export function writeListState(state: ListState): URLSearchParams {
  const out = new URLSearchParams();
  if (state.q.trim()) out.set('q', state.q.trim());
  if (state.status) out.set('status', state.status);
  if (state.therapist) out.set('therapist', state.therapist);
  if (state.sessionType) out.set('sessionType', state.sessionType);
  if (state.motive) out.set('motive', state.motive);
  if (state.sort !== 'lastName') out.set('sort', state.sort);
  if (state.dir !== 'asc') out.set('dir', state.dir);
  if (state.page !== 1) out.set('page', String(state.page));
  return out;
}

export function toQuery(state: ListState): PatientListQuery {
  return {
    q: state.q.trim() || undefined,
    status: state.status ?? undefined,
    therapistId: state.therapist ?? undefined,
    sessionType: state.sessionType ?? undefined,
    motive: state.motive ?? undefined,
    sort: state.sort,
    dir: state.dir,
    page: state.page,
    pageSize: PAGE_SIZE,
  };
}

export const hasFilters = (s: ListState) => Boolean(s.q.trim() || s.therapist || s.sessionType || s.motive);
