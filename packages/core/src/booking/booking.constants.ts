/**
 * Open booking (issue 14): the vocabularies of a booking service and the limits the spec leaves to us
 * (§6 and §9: "limits on public services, voided dates and patient bookings; numbers not shown").
 */
const labelled = <K extends string>(entries: Record<K, string>) => ({ values: Object.keys(entries) as K[], labels: entries });

/** A service takes bookings (active) or is kept without showing on the public pages (paused). */
export const BOOKING_SERVICE_STATUS = labelled({ active: 'Activo', paused: 'En pausa' });
export type BookingServiceStatus = keyof typeof BOOKING_SERVICE_STATUS.labels;

/** What the visitor does with money when booking: nothing, pay the session, or save a card to be charged later. */
export const BOOKING_PAYMENT = labelled({ none: 'Sin pago al reservar', pay: 'Pagar al reservar', card: 'Guardar tarjeta al reservar' });
export type BookingPayment = keyof typeof BOOKING_PAYMENT.labels;

/** ISO weekdays, 1 = Monday … 7 = Sunday, with their Spanish names (lower case, as they read inside a sentence). */
export const ISO_WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
export type IsoWeekday = (typeof ISO_WEEKDAYS)[number];
export const WEEKDAY_NAMES: Record<IsoWeekday, string> = {
  1: 'lunes',
  2: 'martes',
  3: 'miércoles',
  4: 'jueves',
  5: 'viernes',
  6: 'sábado',
  7: 'domingo',
};

/** Booking services per therapist in a workspace (`public_service_limit_reached`). */
export const BOOKING_SERVICES_MAX = 20;
/** Time ranges of one weekday in a schedule. */
export const SCHEDULE_RANGES_PER_DAY_MAX = 12;
export const BOOKING_SERVICE_TITLE_MAX = 120;
export const BOOKING_SERVICE_DESCRIPTION_MAX = 2000;
/** A session booked online lasts from 5 minutes to 12 hours (the sessions' own maximum). */
export const BOOKING_DURATION_MIN = 5;
export const BOOKING_DURATION_MAX = 12 * 60;
/** The free time kept before and after every session of the therapist, at most 4 hours. */
export const BOOKING_GAP_MAX = 4 * 60;
/** Upcoming sessions one patient may hold booked through one service; the setting is 1 to this, or none. */
export const BOOKING_LIMIT_PER_PATIENT_MAX = 100;

/** Blocked days and ranges per request, and future ones kept per therapist (`availability_restriction_limit_exceeded`). */
export const AVAILABILITY_OVERRIDES_PER_REQUEST_MAX = 100;
export const AVAILABILITY_OVERRIDES_MAX = 500;

/** The Spanish messages of the booking rules (spec §5). */
export const bookingMessages = {
  invertedRange: () => 'El rango de horas está invertido',
  emptyRange: () => 'El rango de horas está vacío: la hora de fin es igual a la de inicio',
  overlappingRanges: (weekday: IsoWeekday) => `Los rangos de horas del ${WEEKDAY_NAMES[weekday]} se solapan`,
  rangeShorterThanSession: () => 'El rango de horas es más corto que la duración de la sesión',
  noWeekday: () => 'Elige al menos un día de la semana con horario',
  invalidTimeZone: () => 'Zona horaria inválida',
  noticeOrder: () => 'La antelación mínima no puede ser mayor que la máxima más la duración de la sesión',
  maxNoticeZero: () => 'La antelación máxima debe ser mayor que cero',
  duration: () => `La duración debe estar entre ${BOOKING_DURATION_MIN} minutos y ${BOOKING_DURATION_MAX / 60} horas`,
  gap: () => `El descanso entre sesiones debe estar entre 0 y ${BOOKING_GAP_MAX} minutos`,
  repeatedDay: () => 'Esta fecha está repetida',
  pastDay: () => 'No puedes bloquear una fecha pasada',
  overrideTimesRequired: () => 'Indica la hora de inicio y la de fin, o marca el día completo',
} as const;
