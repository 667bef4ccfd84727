import { describe, expect, it } from 'vitest';
import { errorMessage } from '../errors';
import { createBookingServiceBody, updateBookingServiceBody, type CreateBookingServiceBody } from './booking-service.contracts';
import { bookingServiceProblems, type CheckedBookingService } from './booking-service.rules';

const base: CreateBookingServiceBody = {
  title: 'Primera consulta',
  schedule: {
    1: [
      { from: '09:00', to: '14:00' },
      { from: '16:00', to: '20:00' },
    ],
    3: [{ from: '10:00', to: '13:00' }],
  },
  priceCents: 6000,
  modality: 'presential',
  durationMinutes: 50,
  gapMinutes: 10,
};
const service = (over: Partial<CheckedBookingService> = {}): CheckedBookingService => ({
  schedule: { 1: [{ from: '09:00', to: '14:00' }], 2: [], 3: [], 4: [], 5: [], 6: [], 7: [] },
  timeZone: 'Europe/Madrid',
  durationMinutes: 50,
  gapMinutes: 10,
  minNotice: { amount: 24, unit: 'hours' },
  maxNotice: { amount: 2, unit: 'months' },
  priceCents: 6000,
  payment: 'none',
  ...over,
});
const week = (ranges: { from: string; to: string }[], day = 1) => ({ ...service().schedule, [day]: ranges });
const problems = (over: Partial<CheckedBookingService>) => bookingServiceProblems(service(over)).map((p) => [p.path, p.message]);

describe('booking service contract', () => {
  it('fills the defaults of a new service', () => {
    const s = createBookingServiceBody.parse(base);
    expect(s).toMatchObject({
      description: null,
      timeZone: 'Europe/Madrid',
      locationId: null,
      minNotice: { amount: 24, unit: 'hours' },
      maxNotice: { amount: 2, unit: 'months' },
      reminders: [1440],
      allowNewPatients: true,
      bookingLimitPerPatient: null,
      status: 'active',
      payment: 'none',
    });
    expect(s.schedule[2]).toEqual([]);
    expect(s.schedule[1]).toHaveLength(2);
  });

  it('refuses bad fields in Spanish', () => {
    const bad = (v: unknown) => createBookingServiceBody.safeParse(v).error?.issues.map((i) => i.message);
    expect(bad({ ...base, title: ' ' })).toEqual(['El campo título es obligatorio']);
    expect(bad({ ...base, timeZone: 'Europe/Atlantis' })).toEqual(['Zona horaria inválida']);
    expect(bad({ ...base, durationMinutes: 2 })).toEqual(['La duración debe estar entre 5 minutos y 12 horas']);
    expect(bad({ ...base, priceCents: 10.5 })).toEqual(['Precio inválido']);
    expect(bad({ ...base, minNotice: { amount: -1, unit: 'days' } })).toEqual(['Antelación mínima: cantidad inválida']);
    expect(bad({ ...base, durationMinutes: 721 })).toEqual(['La duración debe estar entre 5 minutos y 12 horas']);
    expect(bad({ ...base, gapMinutes: 241 })).toEqual(['El descanso entre sesiones debe estar entre 0 y 240 minutos']);
    expect(bad({ ...base, schedule: { 1: [{ from: '9:00', to: '14:00' }] } })).toEqual(['Hora inválida']);
    expect(bad({ ...base, minNotice: { amount: 13, unit: 'months' } })).toEqual(['Antelación mínima: no puede ser mayor de 1 año']);
    expect(bad({ ...base, minNotice: { amount: 1, unit: 'weeks' } })).toEqual(['Opción inválida']);
    expect(bad({ ...base, reminders: [60, 60] })).toEqual(['Hay recordatorios repetidos']);
    expect(bad({ ...base, payment: 'cash' })).toEqual(['Opción inválida']);
    expect(bad({ ...base, bookingLimitPerPatient: 0 })).toEqual(['Límite de reservas por paciente inválido']);
  });

  it('runs the §5 rules on create, each problem at its field', () => {
    const r = createBookingServiceBody.safeParse({ ...base, schedule: { 2: [{ from: '12:00', to: '10:00' }] } });
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['schedule.2.0.to', 'El rango de horas está invertido']]);
  });

  it('an update is any subset, with no default filled in', () => {
    expect(updateBookingServiceBody.parse({ status: 'paused' })).toEqual({ status: 'paused' });
    expect(updateBookingServiceBody.parse({})).toEqual({});
  });
});

describe('booking service rules (spec §5)', () => {
  it('a sound service has no problem', () => {
    expect(bookingServiceProblems(service())).toEqual([]);
    expect(bookingServiceProblems(createBookingServiceBody.parse(base))).toEqual([]);
  });

  it('needs a valid time zone', () => {
    expect(problems({ timeZone: 'Madrid' })).toEqual([['timeZone', 'Zona horaria inválida']]);
  });

  it('needs at least one weekday with a range', () => {
    expect(problems({ schedule: week([]) })).toEqual([['schedule', 'Elige al menos un día de la semana con horario']]);
  });

  it('refuses inverted and empty ranges', () => {
    expect(problems({ schedule: week([{ from: '14:00', to: '09:00' }]) })).toEqual([
      ['schedule.1.0.to', 'El rango de horas está invertido'],
    ]);
    expect(
      problems({
        schedule: week([
          { from: '09:00', to: '09:00' },
          { from: '10:00', to: '12:00' },
        ]),
      }),
    ).toEqual([['schedule.1.0.to', 'El rango de horas está vacío: la hora de fin es igual a la de inicio']]);
  });

  it('refuses overlapping ranges of a day, in any order, and lets touching ones be', () => {
    expect(
      problems({
        schedule: week([
          { from: '09:00', to: '14:00' },
          { from: '14:00', to: '16:00' },
        ]),
      }),
    ).toEqual([]);
    expect(
      problems({
        schedule: week(
          [
            { from: '16:00', to: '20:00' },
            { from: '09:00', to: '16:30' },
          ],
          3,
        ),
      }),
    ).toEqual([['schedule.3.0', 'Los rangos de horas del miércoles se solapan']]);
    expect(
      problems({
        schedule: week(
          [
            { from: '09:00', to: '20:00' },
            { from: '10:00', to: '11:00' },
            { from: '12:00', to: '13:00' },
          ],
          7,
        ),
      }).map(([p]) => p),
    ).toEqual(['schedule.7.1', 'schedule.7.2']);
  });

  it('refuses a range shorter than one session', () => {
    expect(problems({ schedule: week([{ from: '09:00', to: '09:49' }]) })).toEqual([
      ['schedule.1.0.to', 'El rango de horas es más corto que la duración de la sesión'],
    ]);
    expect(problems({ schedule: week([{ from: '09:00', to: '09:50' }]) })).toEqual([]);
  });

  it('minimum notice not above maximum notice plus the duration, compared at nominal length', () => {
    const msg = 'La antelación mínima no puede ser mayor que la máxima más la duración de la sesión';
    expect(problems({ minNotice: { amount: 2, unit: 'days' }, maxNotice: { amount: 2, unit: 'days' } })).toEqual([]);
    expect(problems({ minNotice: { amount: 3, unit: 'days' }, maxNotice: { amount: 2, unit: 'days' } })).toEqual([['minNotice', msg]]);
    // 120 minutes ≤ 1 hour + 50 minutes? No: 120 > 110. 110 is fine.
    expect(problems({ minNotice: { amount: 120, unit: 'minutes' }, maxNotice: { amount: 1, unit: 'hours' } })).toEqual([
      ['minNotice', msg],
    ]);
    expect(problems({ minNotice: { amount: 110, unit: 'minutes' }, maxNotice: { amount: 1, unit: 'hours' } })).toEqual([]);
    expect(problems({ minNotice: { amount: 30, unit: 'days' }, maxNotice: { amount: 1, unit: 'months' } })).toEqual([]);
    expect(problems({ minNotice: { amount: 31, unit: 'days' }, maxNotice: { amount: 1, unit: 'months' } })).toEqual([['minNotice', msg]]);
    expect(problems({ maxNotice: { amount: 0, unit: 'days' }, minNotice: { amount: 0, unit: 'days' } })).toEqual([
      ['maxNotice', 'La antelación máxima debe ser mayor que cero'],
    ]);
  });

  it('bounds the duration and the gap', () => {
    expect(problems({ durationMinutes: 4 }).map(([p]) => p)).toEqual(['durationMinutes']);
    expect(problems({ durationMinutes: 50.5 }).map(([p]) => p)).toEqual(['durationMinutes']);
    expect(problems({ gapMinutes: -1 })).toEqual([['gapMinutes', 'El descanso entre sesiones debe estar entre 0 y 240 minutos']]);
    expect(problems({ gapMinutes: 240 })).toEqual([]);
  });

  it('paying at booking needs a price a card can be charged (above 0,50 €)', () => {
    expect(problems({ payment: 'pay', priceCents: 50 })).toEqual([
      ['priceCents', 'Para cobrar al reservar, el precio debe ser mayor de 0,50 €'],
    ]);
    expect(problems({ payment: 'pay', priceCents: 51 })).toEqual([]);
    expect(problems({ payment: 'card', priceCents: 0 })).toEqual([]);
  });

  it('every problem carries a code of the catalogue', () => {
    const all = bookingServiceProblems(service({ timeZone: 'x', durationMinutes: 0, schedule: week([{ from: '10:00', to: '09:00' }]) }));
    expect(all.length).toBeGreaterThan(2);
    for (const p of all) expect(errorMessage(p.code)).not.toBe(errorMessage('unexpected_error'));
  });
});

describe('open booking error codes (spec §8)', () => {
  it('have Spanish messages', () => {
    expect(errorMessage('public_service_slot_not_available')).toBe('Esa hora ya no está disponible. Elige otra.');
    for (const code of [
      'public_service_exists',
      'public_service_not_found',
      'public_service_limit_reached',
      'public_service_patient_data_missing',
      'public_service_not_accepting_new_patients',
      'public_service_patient_session_limit_reached',
      'public_service_embedding_not_allowed',
      'availability_restriction_exists',
      'availability_restriction_not_found',
      'availability_restriction_limit_exceeded',
    ])
      expect(errorMessage(code), code).not.toBe(errorMessage('unexpected_error'));
  });
});
