import { describe, expect, it } from 'vitest';
import {
  createAvailabilityOverridesBody,
  updateAvailabilityOverrideBody,
  type AvailabilityOverride,
} from './availability-override.contracts';
import { availabilityOverrideProblems } from './availability-override.rules';

const TODAY = '2026-05-10';
const parse = (dates: unknown[]) => createAvailabilityOverridesBody.parse({ dates }).dates;
const problems = (dates: AvailabilityOverride[]) => availabilityOverrideProblems(dates, TODAY).map((p) => [p.path, p.message]);

describe('availability override contract', () => {
  it('a whole day by default, the times dropped; a range needs both times', () => {
    expect(
      parse([
        { day: '2026-05-11' },
        { day: '2026-05-12', allDay: true, from: '10:00', to: '11:00' },
        { day: '2026-05-13', allDay: false, from: '10:00', to: '11:30' },
      ]),
    ).toEqual([
      { day: '2026-05-11', allDay: true },
      { day: '2026-05-12', allDay: true },
      { day: '2026-05-13', allDay: false, from: '10:00', to: '11:30' },
    ]);
    const bad = (v: unknown) => createAvailabilityOverridesBody.safeParse(v).error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(bad({ dates: [{ day: '2026-05-13', allDay: false, from: '10:00' }] })).toEqual([
      ['dates.0.from', 'Indica la hora de inicio y la de fin, o marca el día completo'],
    ]);
    expect(bad({ dates: [{ day: '2026-02-30' }] })).toEqual([['dates.0.day', 'Fecha inválida']]);
    expect(bad({ dates: [{ day: '2026-05-13', allDay: false, from: '10:00', to: '24:00' }] })).toEqual([['dates.0.to', 'Hora inválida']]);
    expect(bad({ dates: [] })).toEqual([['dates', 'El campo fechas es obligatorio']]);
    expect(bad({ dates: Array.from({ length: 101 }, () => ({ day: '2026-05-11' })) })).toEqual([
      ['dates', 'No puede tener más de 100 elementos'],
    ]);
    expect(updateAvailabilityOverrideBody.parse({ day: '2026-05-11', allDay: false, from: '09:00', to: '10:00' })).toEqual({
      day: '2026-05-11',
      allDay: false,
      from: '09:00',
      to: '10:00',
    });
  });
});

describe('availability override rules (spec §5)', () => {
  it('sound dates have no problem; today may be blocked', () => {
    expect(problems(parse([{ day: TODAY }, { day: '2026-05-11', allDay: false, from: '09:00', to: '10:00' }]))).toEqual([]);
  });

  it('no repeated dates, whether whole days or ranges', () => {
    expect(
      problems(parse([{ day: '2026-05-11' }, { day: '2026-05-12' }, { day: '2026-05-11', allDay: false, from: '16:00', to: '17:00' }])),
    ).toEqual([['dates.2.day', 'Esta fecha está repetida']]);
  });

  it("no past dates, relative to the therapist's today", () => {
    expect(problems(parse([{ day: '2026-05-09' }]))).toEqual([['dates.0.day', 'No puedes bloquear una fecha pasada']]);
    expect(availabilityOverrideProblems(parse([{ day: '2026-05-09' }]), '2026-05-09')).toEqual([]);
  });

  it("an inverted range says so: 'El rango de horas está invertido'", () => {
    expect(problems(parse([{ day: '2026-05-11', allDay: false, from: '12:00', to: '10:00' }]))).toEqual([
      ['dates.0.to', 'El rango de horas está invertido'],
    ]);
    expect(problems(parse([{ day: '2026-05-11', allDay: false, from: '12:00', to: '12:00' }]))).toEqual([
      ['dates.0.to', 'El rango de horas está vacío: la hora de fin es igual a la de inicio'],
    ]);
  });

  it('a single override is checked with paths of its own body', () => {
    expect(availabilityOverrideProblems([{ day: '2026-05-11', allDay: false, from: '12:00', to: '10:00' }], TODAY, '')).toEqual([
      { code: 'invalid_argument', path: 'to', message: 'El rango de horas está invertido' },
    ]);
  });

  it('refuses a today that is not a day', () => {
    expect(() => availabilityOverrideProblems([], '10/05/2026')).toThrow(RangeError);
  });
});
