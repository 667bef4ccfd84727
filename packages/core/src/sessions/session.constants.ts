/** Session vocabularies of spec §3/§4 with their Spanish labels, and the limits of the session rules (§5). */
const labelled = <K extends string>(entries: Record<K, string>) => ({ values: Object.keys(entries) as K[], labels: entries });

export const SESSION_STATUS = labelled({ pending: 'Pendiente', completed: 'Realizada', canceled: 'Cancelada' });
export type SessionStatus = keyof typeof SESSION_STATUS.labels;

/** Why a session was canceled: analytics and invoicing tell no-shows and late cancellations apart. */
export const CANCELLATION_REASON = labelled({
  patient: 'Cancelada por el paciente',
  therapist: 'Cancelada por el terapeuta',
  no_show: 'El paciente no se presentó',
  late: 'Cancelación tardía',
});
export type CancellationReason = keyof typeof CANCELLATION_REASON.labels;

export const PAYMENT_STATUS = labelled({ pending: 'Pendiente', paid: 'Pagada', refunded: 'Devuelta' });
export type PaymentStatus = keyof typeof PAYMENT_STATUS.labels;

export const PAYMENT_TYPE = labelled({
  cash: 'Efectivo',
  card: 'Tarjeta',
  transfer: 'Transferencia',
  paypal: 'PayPal',
  stripe_connect: 'Pago online',
  other: 'Otro',
});
export type PaymentType = keyof typeof PAYMENT_TYPE.labels;

/** The video call of an online session: Diván's own room (`/meet/:id`) or, later, Google Meet. */
export const VIDEO_CONFERENCE = labelled({ own: 'Videollamada de Diván', google_meet: 'Google Meet' });
export type VideoConference = keyof typeof VIDEO_CONFERENCE.labels;

/** Who receives a session's payment (spec §6, set per member). */
export const PAYMENTS_RECEIVER = labelled({ therapist: 'Terapeuta', workspace: 'Espacio de trabajo' });
export type PaymentsReceiver = keyof typeof PAYMENTS_RECEIVER.labels;

/** "Start date not too old" (§5): a session may start at most this many days ago. */
export const SESSION_MAX_PAST_DAYS = 365;
/** A session ends the day it starts; at most this long. */
export const SESSION_MAX_MINUTES = 12 * 60;
/** A reminder goes at most this long before the session (30 days). */
export const REMINDER_MAX_OFFSET_MINUTES = 30 * 24 * 60;
/** The calendar reads a range of at most this many days (a month view with its spill-over weeks). */
export const SESSION_RANGE_MAX_DAYS = 42;
/** At most this many sessions in one range read (sorted by start): a week of a 50-therapist clinic (~3,000) fits (docs/decisions/0015-calendar-reads.md). */
export const SESSION_LIST_MAX = 5000;
/** Locations (rooms and addresses) per workspace. */
export const MAX_LOCATIONS_PER_WORKSPACE = 50;
/** Session price: at most 10.000 € (cents). */
export const SESSION_PRICE_MAX = 1_000_000;

/** The Spanish messages of the session rules (spec §5, §8). */
export const sessionMessages = {
  patientNotActive: () => 'No puedes crear sesiones para pacientes no activos',
  remindersCap: (max: number) => `Tu plan permite ${max} recordatorios por sesión`,
  startBeforeEnd: () => 'La hora de inicio debe ser anterior a la hora de fin',
  tooLong: () => `Una sesión no puede durar más de ${SESSION_MAX_MINUTES / 60} horas`,
  tooOld: () => 'La sesión no puede empezar hace más de un año',
  rangeBeforeEnd: () => 'El inicio del intervalo debe ser anterior a su fin',
  rangeTooWide: () => `El intervalo no puede superar ${SESSION_RANGE_MAX_DAYS} días`,
  repeatedReminder: () => 'Hay recordatorios repetidos',
  notCancelable: () => 'La sesión ya está cancelada',
  notCompletable: () => 'Una sesión cancelada no se puede marcar como realizada',
} as const;

/**
 * Commission of a member (spec §6): what the workspace keeps of each of their sessions, fixed cents per
 * session or a percentage of the price in basis points (1 % = 100). The rest is the therapist's fee.
 */
export type MemberCommission = { type: 'fixed' | 'percentage'; value: number } | null;

/** The workspace's cut of a session of `priceCents`: a fixed commission up to the price, a percentage rounded half up to the cent. */
export function workspaceCut(priceCents: number, commission: NonNullable<MemberCommission>): number {
  if (commission.type === 'fixed') return Math.min(commission.value, Math.max(priceCents, 0));
  return Math.floor((priceCents * commission.value + 5_000) / 10_000);
}

/**
 * The therapist's fee for a session of `priceCents` (§3 "fee (therapist commission)"), in integer cents:
 * the price less the workspace's commission, so fee + cut = price exactly. No commission set: null
 * (nothing to settle between them; see decision 0024).
 */
export function sessionFee(priceCents: number, commission: MemberCommission): number | null {
  if (!commission) return null;
  return priceCents - workspaceCut(priceCents, commission);
}
