import { INVOICE_STATUS, isUuid, PAYMENT_STATUS, type InvoiceListQuery, type InvoiceStatus, type PaymentStatus } from '@divan/core';
import { DATE_PRESETS, presetRange, type DatePreset } from './date-presets';

export const PAGE_SIZE = 25;

export type ListState = {
  q: string;
  period: DatePreset | null;
  status: InvoiceStatus | null;
  payment: PaymentStatus | null;
  therapist: string | null;
  patient: string | null;
  /** A series as numbered (`2026`, `R2026`, `F-2026`). */
  series: string | null;
  page: number;
};

const oneOf = <T extends string>(values: readonly T[], v: string | null): T | null =>
  v && (values as readonly string[]).includes(v) ? (v as T) : null;
const uuid = (v: string | null) => (isUuid(v) ? v : null);
const SERIES = /^[A-Z0-9/-]{1,30}$/;
const seriesOf = (v: string | null) => (v && SERIES.test(v) ? v : null);

/** The list's state lives in the URL (shareable, survives reload and back); anything unknown is ignored. */
export function readListState(params: URLSearchParams): ListState {
  const page = Number(params.get('page'));
  return {
    q: (params.get('q') ?? '').slice(0, 100),
    period: oneOf(DATE_PRESETS, params.get('period')),
    status: oneOf(INVOICE_STATUS.values, params.get('status')),
    payment: oneOf(PAYMENT_STATUS.values, params.get('payment')),
    therapist: uuid(params.get('therapist')),
    patient: uuid(params.get('patient')),
    series: seriesOf(params.get('series')),
    page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1,
  };
}

/** Only what is set is written, so an unfiltered list has a clean URL. */
export function writeListState(s: ListState): URLSearchParams {
  const out = new URLSearchParams();
  if (s.q.trim()) out.set('q', s.q.trim());
  if (s.period) out.set('period', s.period);
  if (s.status) out.set('status', s.status);
  if (s.payment) out.set('payment', s.payment);
  if (s.therapist) out.set('therapist', s.therapist);
  if (s.patient) out.set('patient', s.patient);
  if (s.series) out.set('series', s.series);
  if (s.page !== 1) out.set('page', String(s.page));
  return out;
}

/** What the API is asked; a period becomes dates on today's calendar. */
export function toQuery(s: ListState, now: Date = new Date()): Partial<InvoiceListQuery> {
  const range = s.period ? presetRange(s.period, now) : null;
  const query: Partial<InvoiceListQuery> = { page: s.page, pageSize: PAGE_SIZE };
  if (range) Object.assign(query, range);
  if (s.q.trim()) query.q = s.q.trim();
  if (s.status) query.status = s.status;
  if (s.payment) query.paymentStatus = s.payment;
  if (s.therapist) query.therapistId = s.therapist;
  if (s.patient) query.patientId = s.patient;
  if (s.series) query.series = s.series;
  return query;
}

export const hasFilters = (s: ListState) =>
  Boolean(s.q.trim() || s.period || s.status || s.payment || s.therapist || s.patient || s.series);
export const NO_FILTERS: Partial<ListState> = {
  q: '',
  period: null,
  status: null,
  payment: null,
  therapist: null,
  patient: null,
  series: null,
};
