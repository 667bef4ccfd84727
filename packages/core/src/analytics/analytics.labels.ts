/**
 * The Spanish names of what the statistics count by (the breakdowns' keys, the rows' states), shared by
 * the screens and the exports so that a figure reads the same in both. 'none' is a value left empty.
 */
import { CANCELLATION_REASON, PAYMENT_STATUS, PAYMENT_TYPE, SESSION_STATUS } from '../sessions/session.constants';
import { ENDING_REASON, GENDER, MODALITY, REFERRAL_SOURCE, SESSION_TYPE, TREATMENT_MOTIVE } from '../patients/patient.constants';
import { AGE_BAND_LABELS, AGEING_LABELS } from './metrics';

export const ANALYTICS_KEY_LABELS = {
  motive: TREATMENT_MOTIVE.labels,
  referralSource: REFERRAL_SOURCE.labels,
  sessionType: SESSION_TYPE.labels,
  gender: GENDER.labels,
  ageBand: AGE_BAND_LABELS,
  endingReason: ENDING_REASON.labels,
  paymentType: PAYMENT_TYPE.labels,
  ageing: AGEING_LABELS,
  sessionStatus: SESSION_STATUS.labels,
  cancellationReason: CANCELLATION_REASON.labels,
  modality: MODALITY.labels,
  paymentStatus: PAYMENT_STATUS.labels,
} as const;
export type AnalyticsKeyKind = keyof typeof ANALYTICS_KEY_LABELS;

/** «Ansiedad» for motive 'anxiety'; «Sin indicar» for an empty one; the key itself for one no list knows. */
export function analyticsKeyLabel(kind: AnalyticsKeyKind, key: string | null | undefined): string {
  if (!key || key === 'none') return 'Sin indicar';
  return (ANALYTICS_KEY_LABELS[kind] as Record<string, string>)[key] ?? key;
}

export const WEEKDAY_LABELS = ['Lunes', 'Martes', 'Miércoles', 'Jueves', 'Viernes', 'Sábado', 'Domingo'] as const;
