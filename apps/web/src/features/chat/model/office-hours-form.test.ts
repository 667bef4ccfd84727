import { describe, expect, it } from 'vitest';
import { DEFAULT_CHAT_AUTO_REPLY } from '@divan/core';
import { isDirty, rangeKey, toBody, toForm, validate } from './office-hours-form';

const saved = {
  enabled: true,
  timeZone: 'Europe/Madrid',
  slots: [
    { weekday: 3, start: '16:00', end: '19:00' },
    { weekday: 1, start: '09:00', end: '14:00' },
    { weekday: 3, start: '09:00', end: '13:00' },
  ],
  autoReply: DEFAULT_CHAT_AUTO_REPLY,
};

describe('office hours form', () => {
  it('groups the weekly slots by day, in order, and gives them back as slots', () => {
    const f = toForm(saved);
    expect(f.days[0]).toEqual([{ start: '09:00', end: '14:00' }]);
    expect(f.days[2]).toEqual([
      { start: '09:00', end: '13:00' },
      { start: '16:00', end: '19:00' },
    ]);
    expect(f.days[6]).toEqual([]);
    expect(toBody(f).slots).toEqual([
      { weekday: 1, start: '09:00', end: '14:00' },
      { weekday: 3, start: '09:00', end: '13:00' },
      { weekday: 3, start: '16:00', end: '19:00' },
    ]);
    expect(isDirty(f, saved)).toBe(false);
  });

  it('tidies typed hours («9», «14.30») and notices a change', () => {
    const f = toForm(saved);
    f.days[4] = [{ start: '9', end: '14.30' }];
    expect(toBody(f).slots.at(-1)).toEqual({ weekday: 5, start: '09:00', end: '14:30' });
    expect(isDirty(f, saved)).toBe(true);
    expect(validate(f)).toEqual({});
  });

  it('says in Spanish what is wrong, next to the field', () => {
    const f = toForm(saved);
    f.days[1] = [{ start: '25:00', end: '10:00' }];
    f.days[3] = [{ start: '12:00', end: '11:00' }];
    f.days[4] = [
      { start: '09:00', end: '13:00' },
      { start: '12:00', end: '15:00' },
    ];
    f.autoReply = '  ';
    const e = validate(f);
    expect(e[rangeKey(1, 0, 'start')]).toBe('Hora no válida (HH:mm)');
    expect(e[rangeKey(3, 0, 'end')]).toBe('La hora de fin debe ser posterior a la de inicio');
    expect(e[rangeKey(4, 1, 'start')]).toBe('Se solapa con la franja de 09:00 a 13:00');
    expect(e.autoReply).toMatch(/Escribe la respuesta automática/);
  });

  it('needs no reply while the hours are off, and caps the week at 28 ranges', () => {
    const f = { ...toForm(saved), enabled: false, autoReply: '' };
    expect(validate(f)).toEqual({});
    f.days = f.days.map(() => [1, 2, 3, 4, 5].map((h) => ({ start: `0${h}:00`, end: `0${h}:30` })));
    expect(validate(f).slots).toBe('Como máximo 28 franjas en la semana.');
  });
});
