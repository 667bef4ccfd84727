import { describe, expect, it } from 'vitest';
import { bodyOf, formKey, newServiceForm, problemsOf, scheduleSummary } from './service-form-model';

describe('service form model', () => {
  it('reads days with the same ranges together, in order', () => {
    const schedule = {
      1: [{ from: '09:00', to: '14:00' }],
      2: [],
      3: [{ from: '09:00', to: '14:00' }],
      4: [],
      5: [{ from: '16:00', to: '20:00' }],
      6: [],
      7: [],
    };
    expect(scheduleSummary(schedule)).toBe('lun, mié · 09:00–14:00 / vie · 16:00–20:00');
    expect(scheduleSummary({ 1: [], 2: [], 3: [], 4: [], 5: [], 6: [], 7: [] })).toBe('Sin horario');
  });

  it('sends euros typed the Spanish way as cents and an empty limit as none', () => {
    const body = bodyOf({ ...newServiceForm(), price: '60,00', limit: ' ' });
    expect(body.priceCents).toBe(6000);
    expect(body.bookingLimitPerPatient).toBeNull();
  });

  it("puts core's messages at the form's fields: the range, the price box, the notice", () => {
    const form = {
      ...newServiceForm(),
      title: 'Primera',
      price: 'sesenta',
      minNoticeAmount: '3',
      minNoticeUnit: 'months' as const,
      maxNoticeAmount: '1',
      maxNoticeUnit: 'months' as const,
    };
    form.schedule[1] = [{ from: '14:00', to: '09:00' }];
    const problems = problemsOf(form);
    expect(problems['schedule.1.0']).toBe('El rango de horas está invertido');
    expect(problems.price).toBeDefined();
    expect(problems.minNotice).toBe('La antelación mínima no puede ser mayor que la máxima más la duración de la sesión');
    expect(problems.title).toBeUndefined();
    expect(formKey('body.schedule.2.1.to')).toBe('schedule.2.1');
    expect(formKey('priceCents')).toBe('price');
  });

  it('has nothing to say about a complete service', () => {
    const form = { ...newServiceForm(), title: 'Primera', price: '60' };
    form.schedule[1] = [{ from: '09:00', to: '14:00' }];
    expect(problemsOf(form)).toEqual({});
  });
});
