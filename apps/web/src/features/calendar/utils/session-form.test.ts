import { describe, expect, it } from 'vitest';
import { blankForm, checkForm, createBodyOf, therapistOptions, updateBodyOf } from './session-form';

const base = blankForm({ patientId: 'p1', day: '2026-12-01', from: '18:00', to: '18:50' });

describe('the session form', () => {
  it('sends only what was chosen, price in integer cents', () => {
    expect(createBodyOf(base)).toEqual({ patientId: 'p1', day: '2026-12-01', from: '18:00', to: '18:50' });
    expect(createBodyOf({ ...base, price: '62,50', modality: 'online', locationId: 'l1', reminders: [1440] })).toEqual({
      patientId: 'p1',
      day: '2026-12-01',
      from: '18:00',
      to: '18:50',
      modality: 'online',
      price: 6250,
      reminders: [1440],
    });
  });
  it('sends the series as contract.md says', () => {
    expect(createBodyOf({ ...base, repeat: 'weekly', endKind: 'count', count: '6' }).recurrence).toEqual({
      frequency: 'weekly',
      end: { count: 6 },
    });
    expect(createBodyOf({ ...base, repeat: 'monthly', endKind: 'until', until: '2027-06-30' }).recurrence).toEqual({
      frequency: 'monthly',
      end: { until: '2027-06-30' },
    });
  });
  it('refuses in Spanish what is plainly wrong', () => {
    expect(checkForm(blankForm({ to: '09:00' }), 'create').map((p) => p.field)).toEqual(['patientId', 'day', 'to']);
    expect(checkForm({ ...base, price: 'sesenta' }, 'create')[0]?.message).toMatch(/euros/);
    expect(checkForm({ ...base, repeat: 'weekly', count: '1' }, 'create')[0]).toEqual({
      field: 'count',
      message: 'Entre 2 y 200 sesiones',
    });
    expect(checkForm({ ...base, repeat: 'weekly', endKind: 'until', until: '2026-11-01' }, 'create')[0]?.field).toBe('until');
  });
  it('an edit sends the changes only, a move with its three parts', () => {
    expect(updateBodyOf(base, base)).toEqual({});
    expect(updateBodyOf({ ...base, from: '19:00', to: '19:50' }, base)).toEqual({ day: '2026-12-01', from: '19:00', to: '19:50' });
    expect(updateBodyOf({ ...base, price: '70' }, base)).toEqual({ price: 7000 });
  });

  it('offers each therapist once, the member first as «(yo)»', () => {
    const team = [
      { id: 'u2', name: 'Bruno Sanz' },
      { id: 'u1', name: 'Marta López' },
      { id: 'u3', name: 'Carla Ruiz' },
    ];
    expect(therapistOptions(team, 'u1')).toEqual([
      { value: 'u1', label: 'Marta López (yo)' },
      { value: 'u2', label: 'Bruno Sanz' },
      { value: 'u3', label: 'Carla Ruiz' },
    ]);
    // Someone who books for others without being a therapist of the list (Recepción).
    expect(therapistOptions(team, 'u9').map((o) => o.value)).toEqual(['u2', 'u1', 'u3']);
  });
});
