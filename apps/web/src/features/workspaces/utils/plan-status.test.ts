import { describe, expect, it } from 'vitest';
import type { Workspace } from '@divan/core';
import { planNotice } from './plan-status';

const now = new Date('2025-03-10T10:00:00Z');
const plan = (p: Partial<Workspace['plan']>): Pick<Workspace, 'plan'> => ({
  plan: { id: null, periodEnd: null, renovationEnabled: false, freeTrialEnd: null, seats: 1, promptUpgrade: true, ...p },
});

describe('plan status', () => {
  it('counts the trial days left, then the last day, then says it ended', () => {
    expect(planNotice(plan({ freeTrialEnd: '2025-03-20T10:00:00Z' }), now)?.text).toBe('Te quedan 10 días de prueba');
    expect(planNotice(plan({ freeTrialEnd: '2025-03-10T20:00:00Z' }), now)?.text).toBe('Hoy es el último día de tu prueba');
    const ended = planNotice(plan({ freeTrialEnd: '2025-03-01T10:00:00Z' }), now);
    expect(ended?.text).toMatch(/^Tu periodo de prueba ha terminado/);
    expect(ended?.dismissible).toBe(false);
  });
  it('says nothing on a paid plan', () => {
    const paid = plan({ id: 'advance', periodEnd: '2025-04-01T12:00:00Z', renovationEnabled: true, promptUpgrade: false });
    expect(planNotice(paid, now)).toBeNull();
  });
  it('prompts gently when there is no plan and no trial', () => {
    expect(planNotice(plan({}), now)?.dismissible).toBe(false);
  });
});
