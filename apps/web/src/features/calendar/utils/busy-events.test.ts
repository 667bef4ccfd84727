import { describe, expect, it } from 'vitest';
import { toBusyEvents } from './busy-events';

describe('Google busy times on the grid', () => {
  it('are background blocks at Madrid’s wall clock, in the therapist’s own column, with nothing but the time', () => {
    const [winter, summer, night] = toBusyEvents(
      [
        { start: '2026-12-23T10:00:00.000Z', end: '2026-12-23T11:00:00.000Z' },
        { start: '2026-07-01T08:30:00.000Z', end: '2026-07-01T09:15:00.000Z' },
        { start: '2026-12-23T22:30:00.000Z', end: '2026-12-24T00:30:00.000Z' },
      ],
      'u-1',
    );
    expect(winter).toMatchObject({
      start: '2026-12-23T11:00:00',
      end: '2026-12-23T12:00:00',
      display: 'background',
      resourceIds: ['u-1'],
      classNames: ['dv-busy'],
      extendedProps: { busy: true },
    });
    expect(winter).not.toHaveProperty('title');
    expect([summer!.start, summer!.end]).toEqual(['2026-07-01T10:30:00', '2026-07-01T11:15:00']);
    // Across midnight it spans both days.
    expect([night!.start, night!.end]).toEqual(['2026-12-23T23:30:00', '2026-12-24T01:30:00']);
    expect(new Set([winter!.id, summer!.id, night!.id]).size).toBe(3);
  });
});
