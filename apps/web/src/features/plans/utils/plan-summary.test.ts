import { describe, expect, it } from 'vitest';
import type { Workspace } from '@divan/core';
import { planSummaryOf } from './plan-summary';

const now = new Date('2025-03-10T10:00:00Z');
const plan = (p: Partial<Workspace['plan']>): Pick<Workspace, 'plan'> => ({
  plan: { id: null, periodEnd: null, renovationEnabled: false, freeTrialEnd: null, seats: 1, promptUpgrade: true, ...p },
});

describe('planSummaryOf', () => {
  it('names a paid plan and its renewal, or its end', () => {
    const paid = plan({ id: 'advance', periodEnd: '2025-04-01T12:00:00Z', renovationEnabled: true, promptUpgrade: false });
    expect(planSummaryOf(paid, now)).toEqual({ name: 'Premium', status: 'Se renueva el 01/04/2025.', badge: null });
    expect(planSummaryOf(plan({ id: 'basic', periodEnd: '2025-04-01T12:00:00Z' }), now).status).toBe(
      'Activo hasta el 01/04/2025; no se renovará.',
    );
  });
  it('counts the trial, then its last day, then says it ended', () => {
    expect(planSummaryOf(plan({ freeTrialEnd: '2025-03-20T10:00:00Z' }), now)).toEqual({
      name: 'Prueba gratuita',
      status: 'Te quedan 10 días de prueba (hasta el 20/03/2025), con las funciones de Premium.',
      badge: 'En prueba',
    });
    expect(planSummaryOf(plan({ freeTrialEnd: '2025-03-10T20:00:00Z' }), now).badge).toBe('Último día');
    expect(planSummaryOf(plan({ freeTrialEnd: '2025-03-01T10:00:00Z' }), now)).toMatchObject({
      name: 'Sin plan',
      badge: 'Prueba terminada',
    });
  });
  it('says Basic when there is no plan and no trial', () => {
    expect(planSummaryOf(plan({}), now)).toEqual({
      name: 'Sin plan',
      status: 'El espacio funciona con las funciones de Basic.',
      badge: null,
    });
  });
});
