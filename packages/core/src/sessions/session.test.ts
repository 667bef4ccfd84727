import { describe, expect, it } from 'vitest';
import { createSessionBody, updateSessionBody, sessionListQuery } from './session.contracts';
import { sessionFee, sessionMessages, workspaceCut } from './session.constants';
import { SESSION_FIELDS } from './session-fields';
import { subjectOfField } from '../workspaces/field-access';

const patientId = '00000000-0000-4000-8000-000000000001';
const issues = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  r.error?.issues.map((i) => [i.path.join('.'), i.message]) ?? [];

describe('session fee: the price less the workspace’s commission', () => {
  it('a fixed commission is what the workspace keeps; the therapist gets the rest, never below zero', () => {
    expect(sessionFee(6000, { type: 'fixed', value: 2500 })).toBe(3500);
    expect(workspaceCut(6000, { type: 'fixed', value: 2500 })).toBe(2500);
    // A commission above the price takes the whole price and no more.
    expect([sessionFee(2000, { type: 'fixed', value: 2500 }), workspaceCut(2000, { type: 'fixed', value: 2500 })]).toEqual([0, 2000]);
    expect(sessionFee(0, { type: 'fixed', value: 2500 })).toBe(0);
  });
  it('a percentage (basis points) is the workspace’s cut, rounded half up to the cent; fee and cut add up to the price', () => {
    // The issue's example: 30 % of a 70 € session is 21 € for the workspace, 49 € for the therapist.
    expect([sessionFee(7000, { type: 'percentage', value: 3000 }), workspaceCut(7000, { type: 'percentage', value: 3000 })]).toEqual([
      4900, 2100,
    ]);
    expect(sessionFee(6000, { type: 'percentage', value: 4000 })).toBe(3600);
    // 33.33 % of 55,55 € = 18,5148… € for the workspace, the rest for the therapist
    expect(sessionFee(5555, { type: 'percentage', value: 3333 })).toBe(5555 - 1851);
    // 12,5 % of 0,10 € = 1,25 cents → 1; of 0,20 € = 2,5 cents → 3
    expect(workspaceCut(10, { type: 'percentage', value: 1250 })).toBe(1);
    expect(workspaceCut(20, { type: 'percentage', value: 1250 })).toBe(3);
    for (const [price, bp] of [
      [9999, 3777],
      [1, 5000],
      [12345, 10000],
      [777, 0],
    ] as const) {
      const c = { type: 'percentage', value: bp } as const;
      expect(sessionFee(price, c)! + workspaceCut(price, c)).toBe(price);
    }
  });
  it('is null without a commission', () => expect(sessionFee(6000, null)).toBeNull());
});

describe('session contracts', () => {
  const base = { patientId, day: '2026-11-24', from: '10:00', to: '10:50' };
  it('accepts a minimal session', () => expect(createSessionBody.safeParse(base).success).toBe(true));
  it('refuses a start not before its end, in Spanish', () => {
    expect(issues(createSessionBody.safeParse({ ...base, from: '11:00', to: '10:00' }))).toEqual([
      ['to', sessionMessages.startBeforeEnd()],
    ]);
    expect(issues(createSessionBody.safeParse({ ...base, to: '10:00' }))).toEqual([['to', sessionMessages.startBeforeEnd()]]);
  });
  it('refuses an impossible day, a bad time and a repeated reminder', () => {
    expect(createSessionBody.safeParse({ ...base, day: '2026-02-30' }).success).toBe(false);
    expect(createSessionBody.safeParse({ ...base, from: '25:00' }).success).toBe(false);
    expect(issues(createSessionBody.safeParse({ ...base, reminders: [60, 60] }))).toEqual([['reminders', 'Hay recordatorios repetidos']]);
  });
  it('moves only with day, from and to together', () => {
    expect(updateSessionBody.safeParse({ day: '2026-11-25' }).success).toBe(false);
    expect(updateSessionBody.safeParse({ day: '2026-11-25', from: '09:00', to: '09:45' }).success).toBe(true);
    expect(updateSessionBody.safeParse({ price: 5000 }).success).toBe(true);
    expect(updateSessionBody.safeParse({ timeZone: 'Atlantic/Canary' }).success).toBe(false);
    expect(updateSessionBody.safeParse({ day: '2026-11-25', from: '09:00', to: '09:45', timeZone: 'Atlantic/Canary' }).success).toBe(true);
  });
  it('reads ranges as instants with an offset', () => {
    expect(sessionListQuery.safeParse({ from: '2026-11-23T00:00:00+01:00', to: '2026-11-30T00:00:00+01:00' }).success).toBe(true);
    expect(sessionListQuery.safeParse({ from: '2026-11-23', to: '2026-11-30' }).success).toBe(false);
  });
});

describe('session field map', () => {
  it('guards the note with the clinical history, the rest with sessions', () => {
    expect(subjectOfField(SESSION_FIELDS, 'noteId')).toBe('patient_histories');
    for (const f of ['day', 'from', 'patient', 'therapist', 'status', 'paymentStatus', 'price'])
      expect(subjectOfField(SESSION_FIELDS, f)).toBe('sessions');
  });
});
