import { describe, expect, it } from 'vitest';
import { createSessionBody, updateSessionBody, sessionListQuery } from './session.contracts';
import { sessionFee, sessionMessages } from './session.constants';
import { SESSION_FIELDS } from './session-fields';
import { subjectOfField } from '../workspaces/field-access';

const patientId = '00000000-0000-4000-8000-000000000001';
const issues = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  r.error?.issues.map((i) => [i.path.join('.'), i.message]) ?? [];

describe('session fee from the therapist commission', () => {
  it('is the fixed commission as is, in cents', () => {
    expect(sessionFee(6000, { type: 'fixed', value: 2500 })).toBe(2500);
    expect(sessionFee(0, { type: 'fixed', value: 2500 })).toBe(2500);
  });
  it('is a percentage (basis points) of the price, rounded half up to the cent', () => {
    expect(sessionFee(6000, { type: 'percentage', value: 4000 })).toBe(2400);
    // 33.33 % of 55,55 € = 18,5148… €
    expect(sessionFee(5555, { type: 'percentage', value: 3333 })).toBe(1851);
    // 12,5 % of 0,10 € = 1,25 cents → 1; of 0,20 € = 2,5 cents → 3
    expect(sessionFee(10, { type: 'percentage', value: 1250 })).toBe(1);
    expect(sessionFee(20, { type: 'percentage', value: 1250 })).toBe(3);
    expect(Number.isInteger(sessionFee(9999, { type: 'percentage', value: 3777 }))).toBe(true);
  });
  it('is null without a commission', () => expect(sessionFee(6000, null)).toBeNull());
});

describe('session contracts', () => {
  const base = { patientId, day: '2026-11-24', from: '10:00', to: '10:50' };
  it('accepts a minimal session', () => expect(createSessionBody.safeParse(base).success).toBe(true));
  it('refuses a start not before its end, in Spanish', () => {
    expect(issues(createSessionBody.safeParse({ ...base, from: '11:00', to: '10:00' }))).toEqual([['to', sessionMessages.startBeforeEnd()]]);
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
    for (const f of ['day', 'from', 'patient', 'therapist', 'status', 'paymentStatus', 'price']) expect(subjectOfField(SESSION_FIELDS, f)).toBe('sessions');
  });
});
