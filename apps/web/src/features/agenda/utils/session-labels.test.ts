import { describe, expect, it } from 'vitest';
import { paymentOf, statusOf, todayRange } from './session-labels';

describe('agenda labels', () => {
  it('tells no-shows and late cancellations apart', () => {
    expect(statusOf({ status: 'canceled', cancellationReason: 'no_show' }).label).toBe('Cancelada: no se presentó');
    expect(statusOf({ status: 'canceled', cancellationReason: 'late' }).label).toBe('Cancelada: tardía');
    expect(statusOf({ status: 'canceled', cancellationReason: 'patient' }).label).toBe('Cancelada');
    expect(statusOf({ status: 'completed', cancellationReason: null })).toEqual({ label: 'Realizada', tone: 'accent' });
  });

  it('shows a payment as owed only once the session took place', () => {
    expect(paymentOf({ status: 'pending', paymentStatus: 'pending' })).toBeNull();
    expect(paymentOf({ status: 'completed', paymentStatus: 'pending' })?.label).toBe('Pago pendiente');
    expect(paymentOf({ status: 'pending', paymentStatus: 'paid' })?.label).toBe('Pagada');
  });

  it('reads today as the local day, 24 hours apart except across a clock change', () => {
    const { from, to } = todayRange(new Date(2026, 10, 24, 15, 30));
    expect(new Date(from).getHours()).toBe(0);
    expect(new Date(from).getDate()).toBe(24);
    expect(new Date(to).getDate()).toBe(25);
    expect(new Date(to).getHours()).toBe(0);
  });
});
