import { CANCELLATION_REASON, PAYMENT_STATUS, SESSION_STATUS, type Session } from '@divan/core';

/** Today in the browser's zone, as the instants the sessions API reads: [00:00, next 00:00). */
export function todayRange(now = new Date()): { from: string; to: string } {
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const end = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  return { from: start.toISOString(), to: end.toISOString() };
}

export type Tone = 'neutral' | 'accent' | 'warning' | 'destructive' | 'outline';

/** "Realizada", "Cancelada: no se presentó"… and the badge tone it is shown with. */
export function statusOf(s: Pick<Session, 'status' | 'cancellationReason'>): { label: string; tone: Tone } {
  if (s.status === 'canceled') {
    const why = s.cancellationReason === 'no_show' ? 'no se presentó' : s.cancellationReason === 'late' ? 'tardía' : null;
    return { label: why ? `Cancelada: ${why}` : SESSION_STATUS.labels.canceled, tone: 'destructive' };
  }
  return { label: SESSION_STATUS.labels[s.status], tone: s.status === 'completed' ? 'accent' : 'neutral' };
}

/** Payment, only worth showing once the session took place (or when already paid). */
export function paymentOf(s: Pick<Session, 'status' | 'paymentStatus'>): { label: string; tone: Tone } | null {
  if (s.paymentStatus === 'paid') return { label: PAYMENT_STATUS.labels.paid, tone: 'outline' };
  if (s.paymentStatus === 'refunded') return { label: PAYMENT_STATUS.labels.refunded, tone: 'outline' };
  if (s.status === 'completed') return { label: 'Pago pendiente', tone: 'warning' };
  return null;
}

export const cancellationLabel = (s: Pick<Session, 'cancellationReason'>) =>
  s.cancellationReason ? CANCELLATION_REASON.labels[s.cancellationReason] : '';

/** Links into other screens (features do not import each other: they meet by URL). */
export const links = {
  session: (id: string) => `/calendar?session=${id}`,
  newSession: (patientId?: string) => (patientId ? `/calendar?new=1&patientId=${patientId}` : '/calendar?new=1'),
  note: (s: Pick<Session, 'id' | 'patient'>) => `/patients/${s.patient.id}/history?session=${s.id}`,
  meet: (id: string) => `/meet/${id}`,
};
