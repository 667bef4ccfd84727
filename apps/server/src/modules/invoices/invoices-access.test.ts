import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIME_ZONE, todayIn } from '@divan/core';
import type { Invoice } from '@divan/core';
import { createTestApp, type TestApp } from '../../test/test-app';
import { clinic, W, type Clinic } from '../../test/session-fixtures';
import { addMember, createRole, therapist, type Therapist } from '../../test/workspace-fixtures';

/**
 * Invoices by role, in a clinic: Tere (Terapeuta, paid herself: she sells), Tomás (Terapeuta, paid to
 * the workspace: the workspace sells), Rosa (Recepción: every invoice and the workspace's), and a
 * custom «Contabilidad» role that only reads. Another's invoice is 404, exactly like one that does
 * not exist; a write without the permission is 403.
 */
let t: TestApp;
let c: Clinic;
let accountant: Therapist;
let tereDraft: Invoice;
let workspaceDraft: Invoice;
const I = () => `${W(c.ws.id)}/invoices`;
const line = { description: 'Sesión de psicoterapia', unitPriceCents: 6000 };
const as = (who: Therapist) => ({ token: who.accessToken });
const answer = async (res: Promise<{ statusCode: number; body: string }>) => {
  const r = await res;
  return [r.statusCode, r.statusCode < 300 ? null : (JSON.parse(r.body) as { code: string }).code];
};
const draft = async (who: Therapist, body: object) => {
  const res = await t.post(I(), { lines: [line], ...body }, as(who));
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json() as Invoice;
};
const listed = async (who: Therapist) => ((await t.get(I(), as(who))).json() as { items: Invoice[] }).items.map((i) => i.id).sort();

beforeAll(async () => {
  t = await createTestApp();
  c = await clinic(t, 'facturas-roles');
  await t.put('/api/v1/me/billing', { fullName: 'Teresa Terapeuta', taxId: '12345678Z' }, as(c.tere));
  await t.put(`${W(c.ws.id)}/billing-info`, { fullName: 'Clínica Roles SL', taxId: 'B12345674' }, as(c.owner));
  accountant = await therapist(t, 'conta@facturas-roles.test', 'Carmen');
  const role = await createRole(t, c.owner, c.ws.id, 'Contabilidad', [
    { action: 'read', subject: 'invoices' },
    { action: 'read', subject: 'workspace_invoices' },
    { action: 'read', subject: 'patient_files' },
  ]);
  await addMember(t, c.owner, c.ws.id, accountant, [role.id]);
  tereDraft = await draft(c.tere, { patientId: c.ana });
  workspaceDraft = await draft(c.rosa, { patientId: c.bruno, therapistId: c.tomas.userId });
}, 60_000);
afterAll(() => t?.close());

describe('who sells decides the subject', () => {
  it('a Terapeuta paid herself sells her own; one paid to the workspace makes it the workspace’s', () => {
    expect([tereDraft.sellerType, tereDraft.therapist.id]).toEqual(['therapist', c.tere.userId]);
    expect([workspaceDraft.sellerType, workspaceDraft.therapist.id]).toEqual(['workspace', c.tomas.userId]);
  });
});

describe('a clinic Terapeuta', () => {
  it('lists only the invoices she sells', async () => {
    expect(await listed(c.tere)).toEqual([tereDraft.id]);
  });

  it('gets 404 for the workspace’s invoice, the same as for one that does not exist, on every route', async () => {
    const ghost = crypto.randomUUID();
    for (const id of [workspaceDraft.id, ghost]) {
      const path = `${I()}/${id}`;
      expect(await answer(t.get(path, as(c.tere)))).toEqual([404, 'invoice_not_found']);
      expect(await answer(t.patch(path, { footer: 'x' }, as(c.tere)))).toEqual([404, 'invoice_not_found']);
      expect(await answer(t.del(path, as(c.tere)))).toEqual([404, 'invoice_not_found']);
      expect(await answer(t.post(`${path}/issue`, undefined, as(c.tere)))).toEqual([404, 'invoice_not_found']);
      expect(await answer(t.get(`${path}/pdf`, as(c.tere)))).toEqual([404, 'invoice_not_found']);
    }
  });

  it('cannot invoice a patient who is not hers (the patients module answers 404)', async () => {
    expect(await answer(t.post(I(), { patientId: c.bruno, lines: [line] }, as(c.tere)))).toEqual([404, 'patient_not_found']);
  });

  it('issues her own and records its payment', async () => {
    const issued = (await t.post(`${I()}/${tereDraft.id}/issue`, undefined, as(c.tere))).json() as Invoice;
    expect([issued.status, issued.seller?.taxId]).toEqual(['issued', '12345678Z']);
    expect(await answer(t.post(`${I()}/${issued.id}/payment`, { paymentType: 'cash' }, as(c.tere)))).toEqual([200, null]);
    tereDraft = issued;
  });

  it('Tomás, paid to the workspace, may not write the workspace’s invoices, not even for his patient', async () => {
    expect(await answer(t.post(I(), { patientId: c.bruno, lines: [line] }, as(c.tomas)))).toEqual([403, 'access_denied']);
    expect(await answer(t.post(`${I()}/${workspaceDraft.id}/issue`, undefined, as(c.tomas)))).toEqual([404, 'invoice_not_found']);
  });
});

describe('Recepción', () => {
  it('lists every invoice, the therapists’ and the workspace’s', async () => {
    expect(await listed(c.rosa)).toEqual([tereDraft.id, workspaceDraft.id].sort());
  });

  it('issues and records the payment of the workspace’s invoice, which the workspace sells', async () => {
    const issued = (await t.post(`${I()}/${workspaceDraft.id}/issue`, undefined, as(c.rosa))).json() as Invoice;
    expect([issued.status, issued.seller?.fullName, issued.seller?.taxId]).toEqual(['issued', 'Clínica Roles SL', 'B12345674']);
    expect(await answer(t.post(`${I()}/${issued.id}/payment`, { paymentType: 'card' }, as(c.rosa)))).toEqual([200, null]);
  });
});

describe('a read-only role («Contabilidad»)', () => {
  it('reads every invoice, its PDF and the accountant’s export', async () => {
    expect(await listed(accountant)).toEqual([tereDraft.id, workspaceDraft.id].sort());
    expect(await answer(t.get(`${I()}/${tereDraft.id}/pdf`, as(accountant)))).toEqual([200, null]);
    expect(await answer(t.get(`${I()}/export?format=csv`, as(accountant)))).toEqual([200, null]);
  });

  it('writes nothing: 403 on create, payment, rectification, voiding and batches', async () => {
    expect(await answer(t.post(I(), { patientId: c.ana, lines: [line] }, as(accountant)))).toEqual([403, 'access_denied']);
    expect(await answer(t.post(`${I()}/${tereDraft.id}/rectify`, { method: 'difference', reason: 'Error' }, as(accountant)))).toEqual([
      403,
      'access_denied',
    ]);
    expect(await answer(t.post(`${I()}/${tereDraft.id}/void`, { reason: 'Error' }, as(accountant)))).toEqual([403, 'access_denied']);
    const today = todayIn(DEFAULT_TIME_ZONE);
    expect(await answer(t.post(`${W(c.ws.id)}/invoice-batches/preview`, { from: today, to: today }, as(accountant)))).toEqual([
      403,
      'access_denied',
    ]);
  });
});
