import {
  DEFAULT_TIME_ZONE,
  ISO_WEEKDAYS,
  bookingServiceProblems,
  createBookingServiceBody,
  centsToDecimalText,
  eurosToCents,
  type BookingPayment,
  type BookingService,
  type BookingServiceStatus,
  type CheckedBookingService,
  type CreateBookingServiceBody,
  type IsoWeekday,
  type Modality,
  type TimeRange,
  type TimespanUnit,
} from '@divan/core';

/**
 * The service form's state as typed (text for numbers, so «60,00» stays as written) and its way to the
 * request body. The rules are core's: `problemsOf` runs the create contract (its §5 rules included) on
 * the body the form would send, so every message at a field is the server's own.
 */
export type ServiceForm = {
  title: string;
  description: string;
  schedule: Record<IsoWeekday, TimeRange[]>;
  timeZone: string;
  price: string;
  modality: Modality;
  duration: string;
  gap: string;
  minNoticeAmount: string;
  minNoticeUnit: TimespanUnit;
  maxNoticeAmount: string;
  maxNoticeUnit: TimespanUnit;
  allowNewPatients: boolean;
  limit: string;
  status: BookingServiceStatus;
  payment: BookingPayment;
};

const emptySchedule = (): Record<IsoWeekday, TimeRange[]> => ({ 1: [], 2: [], 3: [], 4: [], 5: [], 6: [], 7: [] });

export const newServiceForm = (): ServiceForm => ({
  title: '',
  description: '',
  schedule: emptySchedule(),
  timeZone: DEFAULT_TIME_ZONE,
  price: '',
  modality: 'presential',
  duration: '50',
  gap: '10',
  minNoticeAmount: '24',
  minNoticeUnit: 'hours',
  maxNoticeAmount: '2',
  maxNoticeUnit: 'months',
  allowNewPatients: true,
  limit: '',
  status: 'active',
  payment: 'none',
});

export const formOfService = (s: BookingService): ServiceForm => ({
  title: s.title,
  description: s.description ?? '',
  schedule: { ...emptySchedule(), ...Object.fromEntries(ISO_WEEKDAYS.map((d) => [d, s.schedule[d].map((r) => ({ ...r }))])) },
  timeZone: s.timeZone,
  price: centsToDecimalText(s.priceCents),
  modality: s.modality,
  duration: String(s.durationMinutes),
  gap: String(s.gapMinutes),
  minNoticeAmount: String(s.minNotice.amount),
  minNoticeUnit: s.minNotice.unit,
  maxNoticeAmount: String(s.maxNotice.amount),
  maxNoticeUnit: s.maxNotice.unit,
  allowNewPatients: s.allowNewPatients,
  limit: s.bookingLimitPerPatient === null ? '' : String(s.bookingLimitPerPatient),
  status: s.status,
  payment: s.payment,
});

/** A whole number as typed, or NaN (the contract then says what is wrong with it). */
const whole = (text: string): number => (/^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN);

export function bodyOf(f: ServiceForm): CreateBookingServiceBody {
  return {
    title: f.title,
    description: f.description.trim() ? f.description : null,
    schedule: f.schedule,
    timeZone: f.timeZone,
    priceCents: eurosToCents(f.price) ?? Number.NaN,
    modality: f.modality,
    durationMinutes: whole(f.duration),
    gapMinutes: whole(f.gap),
    minNotice: { amount: whole(f.minNoticeAmount), unit: f.minNoticeUnit },
    maxNotice: { amount: whole(f.maxNoticeAmount), unit: f.maxNoticeUnit },
    allowNewPatients: f.allowNewPatients,
    bookingLimitPerPatient: f.limit.trim() ? whole(f.limit) : null,
    status: f.status,
    payment: f.payment,
  };
}

/** The body's fields named as the form shows them: 'priceCents' is the price box, 'minNotice.amount' the minimum notice. */
const FIELD_OF: Record<string, string> = {
  priceCents: 'price',
  durationMinutes: 'duration',
  gapMinutes: 'gap',
  minNotice: 'minNotice',
  maxNotice: 'maxNotice',
  bookingLimitPerPatient: 'limit',
};

/** A problem's path ('schedule.1.0.to', 'minNotice.amount') as the form's key ('schedule.1.0', 'minNotice'). */
export function formKey(path: readonly PropertyKey[] | string): string {
  const parts = (typeof path === 'string' ? path.replace(/^body\./, '').split('.') : path.map(String)).filter(Boolean);
  if (parts[0] === 'schedule') return parts.slice(0, 3).join('.');
  return FIELD_OF[parts[0] ?? ''] ?? parts[0] ?? '';
}

/** The first message per form key. */
export function problemsOf(f: ServiceForm): Record<string, string> {
  const parsed = createBookingServiceBody.safeParse(bodyOf(f));
  const out: Record<string, string> = {};
  if (!parsed.success) for (const issue of parsed.error.issues) out[formKey(issue.path)] ??= issue.message;
  // Zod skips the contract's §5 refinement while a field is malformed: run the rules themselves too, so an
  // inverted range speaks even before the price is typed.
  for (const p of bookingServiceProblems(bodyOf(f) as CheckedBookingService)) out[formKey(p.path)] ??= p.message;
  return out;
}

const short = (d: IsoWeekday) => ['lun', 'mar', 'mié', 'jue', 'vie', 'sáb', 'dom'][d - 1];

/**
 * «lun, mié · 09:00–14:00»: days with the same ranges read together; «lun · 09:00–14:00 / mar · 16:00–20:00»
 * when they differ.
 */
export function scheduleSummary(schedule: Record<IsoWeekday, readonly TimeRange[]>): string {
  const groups = new Map<string, IsoWeekday[]>();
  for (const d of ISO_WEEKDAYS) {
    const ranges = schedule[d] ?? [];
    if (!ranges.length) continue;
    const key = [...ranges]
      .sort((a, b) => a.from.localeCompare(b.from))
      .map((r) => `${r.from}–${r.to}`)
      .join(', ');
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  if (!groups.size) return 'Sin horario';
  return [...groups].map(([ranges, days]) => `${days.map(short).join(', ')} · ${ranges}`).join(' / ');
}
