import { describe, expect, it } from 'vitest';
import { greetingFor } from './greeting';

const at = (hour: number, minute = 0) => new Date(2025, 0, 15, hour, minute);

describe('greetingFor', () => {
  it('says good morning from 6:00 to 13:59', () => {
    expect(greetingFor(at(6))).toBe('Buenos días');
    expect(greetingFor(at(13, 59))).toBe('Buenos días');
  });
  it('says good afternoon from 14:00 to 20:59', () => {
    expect(greetingFor(at(14))).toBe('Buenas tardes');
    expect(greetingFor(at(20, 59))).toBe('Buenas tardes');
  });
  it('says good night from 21:00 to 5:59', () => {
    expect(greetingFor(at(21))).toBe('Buenas noches');
    expect(greetingFor(at(0))).toBe('Buenas noches');
    expect(greetingFor(at(5, 59))).toBe('Buenas noches');
  });
});
