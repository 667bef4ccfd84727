import { describe, expect, it } from 'vitest';
import { createBookingHoldBody } from './public-booking.contracts';
import { BOOKING_FORM_MAX, BOOKING_MESSAGE_MAX } from './public-booking.limits';

const hold = { startsAt: '2026-12-03T09:00:00Z', privacyAccepted: true };
const ok = (body: Record<string, unknown>) => createBookingHoldBody.safeParse({ ...hold, ...body }).success;

describe('the public booking form limits', () => {
  it('are the contract’s: each field takes its limit and refuses one character more', () => {
    expect(ok({ firstName: 'a'.repeat(BOOKING_FORM_MAX.firstName) })).toBe(true);
    expect(ok({ firstName: 'a'.repeat(BOOKING_FORM_MAX.firstName + 1) })).toBe(false);
    expect(ok({ lastName: 'a'.repeat(BOOKING_FORM_MAX.lastName) })).toBe(true);
    expect(ok({ lastName: 'a'.repeat(BOOKING_FORM_MAX.lastName + 1) })).toBe(false);
    const local = (n: number) => `${'a'.repeat(n - '@example.com'.length)}@example.com`;
    expect(ok({ email: local(BOOKING_FORM_MAX.email) })).toBe(true);
    expect(ok({ email: local(BOOKING_FORM_MAX.email + 1) })).toBe(false);
    expect(ok({ phone: '6'.repeat(BOOKING_FORM_MAX.phone) })).toBe(true);
    expect(ok({ phone: '6'.repeat(BOOKING_FORM_MAX.phone + 1) })).toBe(false);
    expect(ok({ message: 'x'.repeat(BOOKING_MESSAGE_MAX) })).toBe(true);
    expect(ok({ message: 'x'.repeat(BOOKING_MESSAGE_MAX + 1) })).toBe(false);
  });

  it('are 100, 150, 254, 30 and 1000 characters', () => {
    expect({ ...BOOKING_FORM_MAX, message: BOOKING_MESSAGE_MAX }).toEqual({
      firstName: 100,
      lastName: 150,
      email: 254,
      phone: 30,
      message: 1000,
    });
  });
});
