import { describe, expect, it } from 'vitest';
import { feeBalanceQuery, feeBalances } from './fee-balance';

describe('feeBalances', () => {
  it('the workspace owes the fees of what it collected; the therapist owes the rest of what they collected', () => {
    const [tere] = feeBalances([
      { therapistId: 't', receiver: 'workspace', sessions: 2, priceCents: 12000, feeCents: 4800, pricedWithFeeCents: 12000 },
      { therapistId: 't', receiver: 'therapist', sessions: 1, priceCents: 6000, feeCents: 2400, pricedWithFeeCents: 6000 },
    ]);
    expect(tere).toEqual({
      therapistId: 't',
      sessions: 3,
      billedCents: 18000,
      feeCents: 7200,
      collectedByWorkspaceCents: 12000,
      collectedByTherapistCents: 6000,
      workspaceOwesCents: 4800,
      therapistOwesCents: 3600,
      balanceCents: 1200,
    });
  });

  it('a session without a fee moves no money, and therapists stay apart', () => {
    const rows = feeBalances([
      { therapistId: 'a', receiver: 'therapist', sessions: 1, priceCents: 5000, feeCents: 0, pricedWithFeeCents: 0 },
      { therapistId: 'b', receiver: 'workspace', sessions: 1, priceCents: 5000, feeCents: 0, pricedWithFeeCents: 0 },
    ]);
    expect(rows.map((r) => [r.therapistId, r.workspaceOwesCents, r.therapistOwesCents, r.balanceCents])).toEqual([
      ['a', 0, 0, 0],
      ['b', 0, 0, 0],
    ]);
  });

  it('checks the period in Spanish', () => {
    const r = feeBalanceQuery.safeParse({ from: '2026-11-10', to: '2026-11-01' });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message)).toEqual(['La fecha de fin no puede ser anterior a la de inicio.']);
  });
});
