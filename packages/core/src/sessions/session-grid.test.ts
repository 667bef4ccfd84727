import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeSessionGrid, encodeSessionGrid, GRID_FLAG, type GridEntry } from './session-grid';
import { SESSION_STATUS } from './session.constants';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const entry = (n: number, over: Partial<GridEntry> = {}): GridEntry => ({
  id: uuid(n),
  patientId: uuid(1000),
  day: '2026-12-07',
  from: '10:00',
  to: '10:50',
  status: 'pending',
  modality: 'presential',
  patient: { name: 'Ana García' },
  therapist: { id: uuid(500), name: 'Teresa Ruiz' },
  location: null,
  series: null,
  noteMissing: false,
  ...over,
});
const withoutPatientId = ({ patientId: _, ...rest }: GridEntry) => rest;

describe('the calendar grid’s columns', () => {
  it('write each name once and point at it; read back, every session is as it was written', () => {
    const room = { id: uuid(700), name: 'Sala 1' };
    const weekly = { id: uuid(800), description: 'Cada semana, los lunes' };
    const entries = [
      entry(1, { series: weekly, location: room }),
      entry(2, { day: '2026-12-08', from: '09:05', to: '23:59', status: 'completed', noteMissing: true, series: weekly }),
      entry(3, { patientId: uuid(1001), patient: { name: 'Bruno Díaz' }, modality: 'online', status: 'canceled', location: room }),
      entry(4, { therapist: { id: uuid(501), name: 'Tomás Gil' }, from: '00:00', to: '00:45' }),
    ];
    const grid = encodeSessionGrid(entries);
    expect(grid.patients).toEqual(['Ana García', 'Bruno Díaz']);
    expect(grid.therapists.map((t) => t.name)).toEqual(['Teresa Ruiz', 'Tomás Gil']);
    expect(grid.locations).toEqual([room]);
    expect(grid.series).toEqual([weekly]);
    expect(grid.days).toEqual(['2026-12-07', '2026-12-08']);
    expect(grid.sessions).toMatchObject({
      day: [0, 1, 0, 0],
      from: [600, 545, 600, 0],
      to: [650, 1439, 650, 45],
      patient: [0, 0, 1, 0],
      location: [0, -1, 0, -1],
      series: [0, 0, -1, -1],
      flags: [0, GRID_FLAG.noteMissing, GRID_FLAG.online, 0],
      status: [0, 1, 2, 0],
    });
    expect(grid.sessions.status.map((i) => SESSION_STATUS.values[i])).toEqual(['pending', 'completed', 'canceled', 'pending']);
    expect(decodeSessionGrid(grid)).toEqual(entries.map(withoutPatientId));
  });

  it('is empty for no sessions', () => {
    const grid = encodeSessionGrid([]);
    expect(grid.sessions.id).toEqual([]);
    expect(decodeSessionGrid(grid)).toEqual([]);
  });

  it('round-trips any week of sessions (property)', () => {
    const time = fc
      .integer({ min: 0, max: 1439 })
      .map((m) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`);
    const arbEntry = fc.record({
      n: fc.nat(10_000),
      patient: fc.integer({ min: 0, max: 20 }),
      therapist: fc.integer({ min: 0, max: 4 }),
      location: fc.integer({ min: -1, max: 2 }),
      series: fc.integer({ min: -1, max: 3 }),
      day: fc.integer({ min: 1, max: 28 }),
      from: time,
      to: time,
      status: fc.constantFrom(...SESSION_STATUS.values),
      online: fc.boolean(),
      noteMissing: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(arbEntry, { maxLength: 60 }), (raw) => {
        // A patient's, therapist's, location's or series' name follows from its id, as in a real read.
        const entries = raw.map((r, i) =>
          entry(i, {
            patientId: uuid(2000 + r.patient),
            patient: { name: `Paciente ${r.patient}` },
            therapist: { id: uuid(3000 + r.therapist), name: `Terapeuta ${r.therapist}` },
            location: r.location < 0 ? null : { id: uuid(4000 + r.location), name: `Sala ${r.location}` },
            series: r.series < 0 ? null : { id: uuid(5000 + r.series), description: `Serie ${r.series}` },
            day: `2026-12-${String(r.day).padStart(2, '0')}`,
            from: r.from,
            to: r.to,
            status: r.status,
            modality: r.online ? 'online' : 'presential',
            noteMissing: r.noteMissing,
          }),
        );
        const grid = encodeSessionGrid(entries);
        expect(decodeSessionGrid(JSON.parse(JSON.stringify(grid)))).toEqual(entries.map(withoutPatientId));
        expect(new Set(grid.patients).size).toBe(grid.patients.length);
      }),
      { numRuns: 200 },
    );
  });
});
