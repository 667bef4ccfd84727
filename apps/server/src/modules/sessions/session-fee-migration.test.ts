import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { sessionFee, type Session } from '@divan/core';
import { createTestApp, type TestApp } from '../../test/test-app';
import { clinic, nextWeek, W, type Clinic } from '../../test/session-fixtures';

const migration = readFileSync(resolve(import.meta.dirname, '../../../drizzle/0041_session_fee_therapist_share.sql'), 'utf8');

let t: TestApp;
let c: Clinic;
beforeAll(async () => {
  t = await createTestApp();
  c = await clinic(t, 'migracion');
}, 60_000);
afterAll(() => t?.close());

describe('migration 0041: fees stored as the commission become the therapist’s share', () => {
  it('turns each old fee into the price less it, as the new rule computes it; no commission stays null', async () => {
    const made = async (patientId: string, therapistId: string, price: number) =>
      (
        (
          await t.post(
            `${W(c.ws.id)}/sessions`,
            { patientId, therapistId, day: nextWeek(), from: '10:00', to: '10:50', price },
            { token: c.owner.accessToken },
          )
        ).json() as { session: Session }
      ).session.id;
    // Tere: the clinic keeps 40 %; Tomás: 25 € fixed; Olga: no commission.
    const pct = await made(c.ana, c.tere.userId, 7000);
    const fixed = await made(c.bruno, c.tomas.userId, 2000);
    const none = await made(c.ana, c.owner.userId, 6000);
    // What the old code stored: the commission itself (40 % of 70 € = 28 €; the fixed 25 €, above the 20 € price).
    await t.rows(sql`update sessions set fee = case id when ${pct} then 2800 when ${fixed} then 2500 end where id in (${pct}, ${fixed})`);
    await t.rows(sql.raw(migration));
    const fees = new Map(
      (await t.rows<{ id: string; fee: number | null }>(sql`select id, fee from sessions where id in (${pct}, ${fixed}, ${none})`)).map(
        (r) => [r.id, r.fee],
      ),
    );
    expect([fees.get(pct), fees.get(fixed), fees.get(none)]).toEqual([
      sessionFee(7000, { type: 'percentage', value: 4000 }),
      sessionFee(2000, { type: 'fixed', value: 2500 }),
      null,
    ]);
    expect([fees.get(pct), fees.get(fixed)]).toEqual([4200, 0]);
  });
});
