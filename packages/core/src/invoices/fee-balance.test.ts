import { describe, expect, it } from 'vitest';
import { sessionFee } from '../sessions/session.constants';
import { feeBalanceQuery, feeBalances } from './fee-balance';

const nbsp = (s: string) => s.replace(/ €/g, '\u00a0€');
const names = (id: string) => ({ t: 'Tere', a: 'Ana', b: 'Bea' })[id] ?? '?';

describe('feeBalances', () => {
  it('the issue’s session: 30 % commission, the workspace collects 70 € and owes the therapist 49 €, keeping 21 €', () => {
    const fee = sessionFee(7000, { type: 'percentage', value: 3000 })!;
    const [row] = feeBalances(
      [
        {
          therapistId: 't',
          receiver: 'workspace',
          sessions: 1,
          priceCents: 7000,
          feeCents: fee,
          pricedWithFeeCents: 7000,
          sessionsWithFee: 1,
        },
      ],
      names,
    );
    expect(row).toMatchObject({
      feeCents: 4900,
      commissionCents: 2100,
      workspaceOwesCents: 4900,
      therapistOwesCents: 0,
      balanceCents: 4900,
    });
    expect(row!.verdict).toBe(nbsp('El espacio debe 49,00 € a Tere'));
    expect(row!.reasons).toEqual([
      nbsp('Cobra el espacio: cobró 70,00 € de 1 sesión y debe a Tere su parte, 49,00 € (se queda 21,00 € de comisión).'),
    ]);
  });

  it('the therapist who collected owes the workspace its commission', () => {
    const fee = sessionFee(7000, { type: 'percentage', value: 3000 })!;
    const [row] = feeBalances(
      [
        {
          therapistId: 't',
          receiver: 'therapist',
          sessions: 1,
          priceCents: 7000,
          feeCents: fee,
          pricedWithFeeCents: 7000,
          sessionsWithFee: 1,
        },
      ],
      names,
    );
    expect(row).toMatchObject({ workspaceOwesCents: 0, therapistOwesCents: 2100, balanceCents: -2100 });
    expect(row!.verdict).toBe(nbsp('Tere debe 21,00 € al espacio'));
    expect(row!.reasons).toEqual([
      nbsp('Cobra Tere: cobró 70,00 € de 1 sesión y debe al espacio su comisión, 21,00 € (su parte: 49,00 €).'),
    ]);
  });

  it('both ways in one period: what each owes is netted, in integer cents', () => {
    const [tere] = feeBalances(
      [
        {
          therapistId: 't',
          receiver: 'workspace',
          sessions: 2,
          priceCents: 12000,
          feeCents: 7200,
          pricedWithFeeCents: 12000,
          sessionsWithFee: 2,
        },
        {
          therapistId: 't',
          receiver: 'therapist',
          sessions: 1,
          priceCents: 6000,
          feeCents: 3600,
          pricedWithFeeCents: 6000,
          sessionsWithFee: 1,
        },
      ],
      names,
    );
    expect(tere).toMatchObject({
      therapistId: 't',
      sessions: 3,
      billedCents: 18000,
      feeCents: 10800,
      commissionCents: 7200,
      collectedByWorkspaceCents: 12000,
      collectedByTherapistCents: 6000,
      workspaceOwesCents: 7200,
      therapistOwesCents: 2400,
      balanceCents: 4800,
      unsettledSessions: 0,
    });
    expect(tere!.verdict).toBe(nbsp('El espacio debe 48,00 € a Tere'));
    expect(tere!.reasons.at(-1)).toBe('Lo que se deben se compensa: queda el saldo.');
  });

  it('a session without a commission moves no money, says so, and therapists stay apart', () => {
    const rows = feeBalances(
      [
        { therapistId: 'a', receiver: 'therapist', sessions: 1, priceCents: 5000, feeCents: 0, pricedWithFeeCents: 0, sessionsWithFee: 0 },
        { therapistId: 'b', receiver: 'workspace', sessions: 2, priceCents: 10000, feeCents: 0, pricedWithFeeCents: 0, sessionsWithFee: 0 },
      ],
      names,
    );
    expect(
      rows.map((r) => [
        r.therapistId,
        r.workspaceOwesCents,
        r.therapistOwesCents,
        r.balanceCents,
        r.unsettledSessions,
        r.unsettledCents,
        r.verdict,
      ]),
    ).toEqual([
      ['a', 0, 0, 0, 1, 5000, 'Nadie debe nada'],
      ['b', 0, 0, 0, 2, 10000, 'Nadie debe nada'],
    ]);
    expect(rows[1]!.reasons).toEqual([nbsp('2 sesiones sin comisión acordada (100,00 €) no entran en el saldo.')]);
  });

  it('checks the period in Spanish', () => {
    const r = feeBalanceQuery.safeParse({ from: '2026-11-10', to: '2026-11-01' });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message)).toEqual(['La fecha de fin no puede ser anterior a la de inicio.']);
  });
});
