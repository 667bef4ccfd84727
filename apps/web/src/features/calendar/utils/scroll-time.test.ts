import { describe, expect, it } from 'vitest';
import { scrollTimeFor } from './scroll-time';

const s = (from: string, status = 'pending') => ({ from, status });

describe('where the week opens', () => {
  it('opens on the first session, half an hour before, so evening sessions are not below the fold', () => {
    expect(scrollTimeFor([s('19:00'), s('20:15'), s('18:40')])).toBe('18:00');
    expect(scrollTimeFor([s('21:00')])).toBe('20:30');
    expect(scrollTimeFor([s('09:00'), s('19:00')])).toBe('08:30');
    expect(scrollTimeFor([s('00:10')])).toBe('00:00');
  });

  it('opens on the working day without sessions, canceled ones not counted', () => {
    expect(scrollTimeFor([])).toBe('08:00');
    expect(scrollTimeFor([s('06:00', 'canceled'), s('19:30')])).toBe('19:00');
  });
});
