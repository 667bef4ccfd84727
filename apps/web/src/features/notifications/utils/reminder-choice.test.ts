import { describe, expect, it } from 'vitest';
import { describeOffsets, toggleOffset } from './reminder-choice';

describe('reminder choice', () => {
  it('ticks up to the plan’s cap, longest first, and unticks', () => {
    expect(toggleOffset([], 60, 2)).toEqual([60]);
    expect(toggleOffset([60], 1440, 2)).toEqual([1440, 60]);
    expect(toggleOffset([1440, 60], 15, 2)).toBeNull();
    expect(toggleOffset([1440], 60, 1)).toBeNull();
    expect(toggleOffset([1440, 60], 1440, 2)).toEqual([60]);
  });
  it('describes the choice in Spanish', () => {
    expect(describeOffsets([])).toBe('Sin recordatorios');
    expect(describeOffsets([60, 1440])).toBe('1 día antes y 1 h antes');
    expect(describeOffsets([15, 10080, 120])).toBe('1 semana antes, 2 h antes y 15 min antes');
  });
});
