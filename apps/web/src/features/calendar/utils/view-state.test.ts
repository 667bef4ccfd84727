import { describe, expect, it } from 'vitest';
import { readViewState, writeViewState } from './view-state';

const defaults = { today: '2026-11-24', phone: false };

describe('the calendar view in the URL', () => {
  it('defaults to this week on a desktop and today on a phone', () => {
    expect(readViewState(new URLSearchParams(), defaults)).toEqual({ view: 'week', date: '2026-11-24', who: 'all', color: 'therapist' });
    expect(readViewState(new URLSearchParams(), { ...defaults, phone: true }).view).toBe('day');
  });
  it('reads what it wrote, ignoring nonsense', () => {
    const p = writeViewState(
      new URLSearchParams('session=x'),
      { view: 'month', date: '2026-12-01', who: 'mine', color: 'status' },
      defaults,
    );
    expect(p.toString()).toBe('session=x&view=month&date=2026-12-01&who=mine&color=status');
    expect(readViewState(p, defaults)).toEqual({ view: 'month', date: '2026-12-01', who: 'mine', color: 'status' });
    expect(readViewState(new URLSearchParams('view=year&date=2026-02-30'), defaults)).toMatchObject({ view: 'week', date: '2026-11-24' });
  });
  it('leaves defaults out of the URL', () => {
    expect(
      writeViewState(new URLSearchParams(), { view: 'week', date: '2026-11-24', who: 'all', color: 'therapist' }, defaults).toString(),
    ).toBe('');
  });
});
