import { describe, expect, it } from 'vitest';
import { tzOffset } from './tz-offset';

describe('tzOffset', () => {
  it("reads a zone's offset at an instant, summer and winter", () => {
    expect(tzOffset('Europe/Madrid', new Date('2026-07-01T12:00:00Z'))).toBe(120);
    expect(tzOffset('Europe/Madrid', new Date('2026-01-15T12:00:00Z'))).toBe(60);
    expect(tzOffset('America/Mexico_City', new Date('2026-07-01T12:00:00Z'))).toBe(-360);
    expect(tzOffset('Asia/Kolkata', new Date('2026-07-01T12:00:00Z'))).toBe(330);
    expect(tzOffset('America/St_Johns', new Date('2026-01-15T12:00:00Z'))).toBe(-210);
    expect(tzOffset('UTC', new Date('2026-07-01T12:00:00Z'))).toBe(0);
  });

  it('changes at the clock change, to the minute', () => {
    expect(tzOffset('Europe/Madrid', new Date('2026-03-29T00:59:00Z'))).toBe(60);
    expect(tzOffset('Europe/Madrid', new Date('2026-03-29T01:00:00Z'))).toBe(120);
    expect(tzOffset('Europe/Madrid', new Date('2026-10-25T00:59:00Z'))).toBe(120);
    expect(tzOffset('Europe/Madrid', new Date('2026-10-25T01:00:00Z'))).toBe(60);
  });

  it('reads a bare offset by hand, and an unknown zone is NaN', () => {
    expect(tzOffset('+05:30', new Date())).toBe(330);
    expect(tzOffset('-03:00', new Date())).toBe(-180);
    expect(tzOffset('Nowhere/Zone', new Date())).toBeNaN();
  });
});
