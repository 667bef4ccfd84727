// The treatment's medication is kept encrypted: no row of the database holds it in clear, the API
// gives it back, and medication written in clear by earlier versions is encrypted at start-up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Patient, Workspace } from '@divan/core';
import { createSecondApp, createTestApp, json, type TestApp } from '../../test/test-app';
import { therapist, type Therapist } from '../../test/workspace-fixtures';
import { openMedication } from './patient-medication';

let t: TestApp;
let owner: Therapist;
let P: string;

/** Every column of every patient row, as text. */
const patientRowsText = async () =>
  (await t.rows<{ row: string }>(sql`select row_to_json(p)::text as row from patients p`)).map((r) => r.row).join('\n');
const clearColumn = async () =>
  (
    await t.rows(
      sql`select 1 from information_schema.columns where table_schema = current_schema() and table_name = 'patients' and column_name = 'treatment_medication'`,
    )
  ).length;
const get = async (id: string) => json<Patient>(await t.get(`${P}/${id}`, { token: owner.accessToken }));

beforeAll(async () => {
  t = await createTestApp();
  owner = await therapist(t, 'irene@consulta.test', 'Irene');
  const ws = json<Workspace[]>(await t.get('/api/v1/workspaces', { token: owner.accessToken }))[0]!;
  P = `/api/v1/workspaces/${ws.id}/patients`;
});
afterAll(() => t?.close());

describe('medication at rest', () => {
  it('is stored encrypted on create and on treatment update, and read back in clear', async () => {
    const res = await t.post(
      P,
      { firstName: 'Marta', treatment: { medication: 'Sertralina 50 mg cada mañana' } },
      { token: owner.accessToken },
    );
    expect(res.statusCode, res.body).toBe(201);
    const p = json<Patient>(res);
    expect(p.treatment?.medication).toBe('Sertralina 50 mg cada mañana');
    const updated = await t.put(`${P}/${p.id}/treatment`, { medication: 'Lorazepam 1 mg si precisa' }, { token: owner.accessToken });
    expect(json<Patient>(updated).treatment?.medication).toBe('Lorazepam 1 mg si precisa');
    expect((await get(p.id)).treatment?.medication).toBe('Lorazepam 1 mg si precisa');

    const rows = await patientRowsText();
    for (const word of ['Sertralina', 'Lorazepam', 'mg si precisa']) expect(rows).not.toContain(word);
    const [row] = await t.rows<{ enc: string }>(sql`select treatment_medication_enc as enc from patients where id = ${p.id}`);
    expect(row!.enc).toMatch(/^v2:/);
    expect(await clearColumn()).toBe(0);

    // Cleared with null; untouched when the body leaves it out.
    await t.put(`${P}/${p.id}/treatment`, { sessionPrice: 5000 }, { token: owner.accessToken });
    expect((await get(p.id)).treatment?.medication).toBe('Lorazepam 1 mg si precisa');
    await t.put(`${P}/${p.id}/treatment`, { medication: null }, { token: owner.accessToken });
    expect((await get(p.id)).treatment?.medication).toBeNull();
  });

  it('a value moved to another patient does not decrypt (bound to its row and column)', async () => {
    const a = json<Patient>(await t.post(P, { firstName: 'Origen', treatment: { medication: 'Litio' } }, { token: owner.accessToken }));
    const [row] = await t.rows<{ enc: string; ws: string }>(
      sql`select treatment_medication_enc as enc, workspace_id as ws from patients where id = ${a.id}`,
    );
    const { cipher } = t.app.services;
    expect(await openMedication(cipher, row!.ws, a.id, row!.enc)).toBe('Litio');
    await expect(openMedication(cipher, row!.ws, crypto.randomUUID(), row!.enc)).rejects.toThrow();
    await expect(cipher.decryptText(row!.ws, row!.enc, `history:${a.id}:title`)).rejects.toThrow();
  });

  it('medication left in clear by an earlier version is encrypted at start-up and its column dropped', async () => {
    const p = json<Patient>(await t.post(P, { firstName: 'Antigua' }, { token: owner.accessToken }));
    const q = json<Patient>(await t.post(P, { firstName: 'Otra', treatment: { medication: 'Ya cifrada' } }, { token: owner.accessToken }));
    // The database as an earlier version left it: the clear column, with a value.
    await t.rows(sql`alter table patients add column treatment_medication text`);
    await t.rows(sql`update patients set treatment_medication = 'Fluoxetina 20 mg' where id = ${p.id}`);
    expect(await patientRowsText()).toContain('Fluoxetina');

    expect(await t.app.services.patients.encryptClearMedication()).toBe(1);
    expect(await clearColumn()).toBe(0);
    expect(await patientRowsText()).not.toContain('Fluoxetina');
    expect((await get(p.id)).treatment?.medication).toBe('Fluoxetina 20 mg');
    expect((await get(q.id)).treatment?.medication).toBe('Ya cifrada');
    // Once done, nothing to do.
    expect(await t.app.services.patients.encryptClearMedication()).toBe(0);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'a server starting on such a database encrypts it before serving (PostgreSQL: a second process)',
    async () => {
      const p = json<Patient>(await t.post(P, { firstName: 'Reinicio' }, { token: owner.accessToken }));
      await t.rows(sql`alter table patients add column treatment_medication text`);
      await t.rows(sql`update patients set treatment_medication = 'Quetiapina 25 mg' where id = ${p.id}`);
      const b = await createSecondApp(t);
      try {
        expect(await clearColumn()).toBe(0);
        expect(await patientRowsText()).not.toContain('Quetiapina');
        expect(json<Patient>(await b.get(`${P}/${p.id}`, { token: owner.accessToken })).treatment?.medication).toBe('Quetiapina 25 mg');
      } finally {
        await b.close();
      }
    },
  );
});
