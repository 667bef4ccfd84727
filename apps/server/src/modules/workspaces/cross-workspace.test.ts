import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkspaceLocation, Member, Patient, Role, Session } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';
import { records } from '../../test/workspace-records';

/**
 * Ids of one workspace asked through another's path (issue 9). Alicia administers A and has nothing
 * in B; Bruno administers B. A record of B asked through A's path answers 404, never 403 (which would
 * say it exists) nor 200; B's records are untouched afterwards. And Bruno, who is not in A, gets
 * workspace_not_found on A's path even with A's real ids.
 */
let t: TestApp;
let alicia: Therapist;
let bruno: Therapist;
type Ids = {
  ws: string;
  patient: string;
  entry: string;
  document: string;
  import: string;
  role: string;
  invitation: string;
  member: string;
  session: string;
  location: string;
  invoice: string;
};
let A: Ids;
let B: Ids;

async function fill(owner: Therapist, name: string): Promise<Ids> {
  const ws = await createWorkspace(t, owner, name, 'clinic');
  await t.app.services.workspaces.setPlan(ws.id, { id: 'team', seats: 10 });
  const tk = owner.accessToken;
  const patient = await records.patient(t, tk, ws.id);
  const role = await records.role(t, ws.id);
  return {
    ws: ws.id,
    patient,
    entry: await records.revisedEntry(t, tk, ws.id, patient),
    document: await records.document(t, tk, ws.id, patient),
    import: await records.patientImport(t, tk, ws.id),
    role,
    invitation: await records.invitation(t, tk, ws.id, role),
    member: await records.member(t, tk, ws.id, role),
    session: await records.session(t, tk, ws.id),
    location: await records.location(t, tk, ws.id),
    invoice: await records.invoice(t, tk, ws.id),
  };
}

beforeAll(async () => {
  t = await createTestApp();
  alicia = await therapist(t, 'alicia@cruce.test', 'Alicia');
  bruno = await therapist(t, 'bruno@cruce.test', 'Bruno');
  A = await fill(alicia, 'Clínica A');
  B = await fill(bruno, 'Clínica B');
}, 60_000);
afterAll(() => t?.close());

const entryBody = { title: 'Cambiada', date: '2026-02-01', body: '<p>otra</p>', private: false };
type Call = { method: 'GET' | 'PATCH' | 'PUT' | 'POST' | 'DELETE'; path: string; body?: unknown };
/** Per resource, the calls that name a record: `own` holds the ids of the path's workspace, `other` the ids asked for. */
const RESOURCES: { resource: string; calls: (W: string, own: Ids, other: Ids) => Call[] }[] = [
  {
    resource: 'patient',
    calls: (W, _own, o) => [
      { method: 'GET', path: `${W}/patients/${o.patient}` },
      { method: 'PATCH', path: `${W}/patients/${o.patient}`, body: { firstName: 'Cambiado' } },
      { method: 'PUT', path: `${W}/patients/${o.patient}/assignment`, body: { therapistId: null } },
      { method: 'GET', path: `${W}/patients/${o.patient}/export.json` },
      { method: 'DELETE', path: `${W}/patients/${o.patient}` },
    ],
  },
  {
    resource: 'history entries',
    calls: (W, own, o) => [
      { method: 'GET', path: `${W}/patients/${o.patient}/history` },
      { method: 'POST', path: `${W}/patients/${o.patient}/history`, body: entryBody },
      { method: 'PUT', path: `${W}/patients/${own.patient}/history/${o.entry}`, body: entryBody },
      { method: 'PUT', path: `${W}/patients/${o.patient}/history/${o.entry}`, body: entryBody },
      { method: 'DELETE', path: `${W}/patients/${own.patient}/history/${o.entry}` },
    ],
  },
  {
    resource: 'history revisions',
    calls: (W, own, o) => [
      { method: 'GET', path: `${W}/patients/${own.patient}/history/${o.entry}/revisions` },
      { method: 'GET', path: `${W}/patients/${o.patient}/history/${o.entry}/revisions` },
    ],
  },
  {
    resource: 'documents',
    calls: (W, own, o) => [
      { method: 'GET', path: `${W}/patients/${o.patient}/documents` },
      { method: 'PATCH', path: `${W}/patients/${own.patient}/documents/${o.document}`, body: { name: 'cambiado.txt' } },
      { method: 'PUT', path: `${W}/patients/${own.patient}/documents/${o.document}/sharing`, body: { shared: true } },
      { method: 'DELETE', path: `${W}/patients/${own.patient}/documents/${o.document}` },
    ],
  },
  {
    resource: 'document download',
    calls: (W, own, o) => [
      { method: 'GET', path: `${W}/patients/${own.patient}/documents/${o.document}/download` },
      { method: 'GET', path: `${W}/patients/${o.patient}/documents/${o.document}/download` },
    ],
  },
  {
    resource: 'patient imports',
    calls: (W, _own, o) => [
      { method: 'GET', path: `${W}/patient-imports/${o.import}` },
      { method: 'POST', path: `${W}/patient-imports/${o.import}/commit`, body: { mapping: { firstName: 0 } } },
    ],
  },
  {
    resource: 'members',
    calls: (W, own, o) => [
      { method: 'PATCH', path: `${W}/members/${o.member}`, body: { roleIds: [own.role] } },
      { method: 'DELETE', path: `${W}/members/${o.member}` },
    ],
  },
  {
    resource: 'roles',
    calls: (W, _own, o) => [
      { method: 'PUT', path: `${W}/roles/${o.role}`, body: { name: 'Cambiado', permissions: [{ action: 'read', subject: 'sessions' }] } },
      { method: 'DELETE', path: `${W}/roles/${o.role}` },
    ],
  },
  {
    resource: 'sessions',
    calls: (W, own, o) => [
      { method: 'GET', path: `${W}/sessions/${o.session}` },
      { method: 'PATCH', path: `${W}/sessions/${o.session}`, body: { invoiced: true } },
      { method: 'POST', path: `${W}/sessions/${o.session}/cancel`, body: { reason: 'patient' } },
      { method: 'POST', path: `${W}/sessions/${o.session}/complete` },
      { method: 'POST', path: `${W}/sessions/${o.session}/payment`, body: { paymentType: 'cash' } },
      { method: 'POST', path: `${W}/sessions/${o.session}/note`, body: { title: 'Nota', body: '' } },
      { method: 'GET', path: `${W}/patients/${o.patient}/sessions` },
      // A foreign location on one's own session.
      { method: 'PATCH', path: `${W}/sessions/${own.session}`, body: { locationId: o.location } },
    ],
  },
  {
    resource: 'locations',
    calls: (W, _own, o) => [
      { method: 'PATCH', path: `${W}/locations/${o.location}`, body: { name: 'Cambiada' } },
      { method: 'DELETE', path: `${W}/locations/${o.location}` },
    ],
  },
  {
    resource: 'invoices',
    calls: (W, own, o) => [
      { method: 'GET', path: `${W}/invoices/${o.invoice}` },
      { method: 'PATCH', path: `${W}/invoices/${o.invoice}`, body: { footer: 'Cambiado' } },
      { method: 'POST', path: `${W}/invoices/${o.invoice}/issue` },
      { method: 'POST', path: `${W}/invoices/${o.invoice}/payment`, body: { paymentType: 'cash' } },
      { method: 'POST', path: `${W}/invoices/${o.invoice}/rectify`, body: { method: 'difference', reason: 'Error' } },
      { method: 'DELETE', path: `${W}/invoices/${o.invoice}` },
      // A foreign patient on one's own new invoice, and a foreign session on one's own patient.
      { method: 'POST', path: `${W}/invoices`, body: { patientId: o.patient, lines: [] } },
      { method: 'POST', path: `${W}/invoices/from-sessions`, body: { patientId: own.patient, sessionIds: [o.session] } },
    ],
  },
  {
    resource: 'invitations',
    calls: (W, _own, o) => [{ method: 'DELETE', path: `${W}/invitations/${o.invitation}` }],
  },
];

const send = (who: Therapist, c: Call) =>
  t.app.inject({
    method: c.method,
    url: c.path,
    headers: { authorization: `Bearer ${who.accessToken}` },
    ...(c.body !== undefined ? { payload: c.body as object } : {}),
  });
const outcome = async (who: Therapist, c: Call) => {
  const res = await send(who, c);
  return `${c.method} ${c.path} → ${res.statusCode} ${(res.json() as { code?: string }).code}`;
};
const ws = (ids: Ids) => `/api/v1/workspaces/${ids.ws}`;
const RECORD_NOT_FOUND =
  /→ 404 (patient|history|document|import|seat|role|invitation|therapy_session|location|invoice|invoice_session)_not_found$/;

describe('a record of another workspace asked through this workspace’s path', () => {
  it.each(RESOURCES)('$resource: 404, both ways', async ({ calls }) => {
    // Alicia, administrator of A, asks A's path for B's records.
    for (const c of calls(ws(A), A, B)) expect(await outcome(alicia, c)).toMatch(RECORD_NOT_FOUND);
    // Bruno, administrator of B, asks B's path for A's records.
    for (const c of calls(ws(B), B, A)) expect(await outcome(bruno, c)).toMatch(RECORD_NOT_FOUND);
    // Bruno asks A's path with A's real ids: he learns nothing about A.
    for (const c of calls(ws(A), A, A)) expect(await outcome(bruno, c)).toMatch(/→ 404 workspace_not_found$/);
  });

  it('left every record of both workspaces as it was', async () => {
    for (const [ids, owner] of [
      [A, alicia],
      [B, bruno],
    ] as const) {
      const get = (path: string) => t.get(`${ws(ids)}${path}`, { token: owner.accessToken });
      expect(json<Patient>(await get(`/patients/${ids.patient}`)).firstName).toBe('Registro');
      const entries = json<{ id: string; title: string; revisions: number }[]>(await get(`/patients/${ids.patient}/history`));
      expect(entries.find((e) => e.id === ids.entry)).toMatchObject({ title: 'Primera sesión', revisions: 1 });
      expect(json<unknown[]>(await get(`/patients/${ids.patient}/history/${ids.entry}/revisions`))).toHaveLength(1);
      const download = await get(`/patients/${ids.patient}/documents/${ids.document}/download`);
      expect([download.statusCode, download.body]).toEqual([200, 'Informe de evolución.\n']);
      expect((await get(`/patient-imports/${ids.import}`)).statusCode).not.toBe(404);
      expect(json<{ status: string }>(await get(`/invoices/${ids.invoice}`)).status).toBe('draft');
      const members = json<Member[]>(await get('/members'));
      expect(members.find((m) => m.id === ids.member)?.roles.map((r) => r.id)).toEqual([ids.role]);
      expect(members.find((m) => m.id === ids.invitation)).toMatchObject({ status: 'pending' });
      expect(json<Role[]>(await get('/roles')).find((r) => r.id === ids.role)).toMatchObject({
        permissions: [{ action: 'read', subject: 'sessions' }],
      });
      expect(json<Session>(await get(`/sessions/${ids.session}`))).toMatchObject({
        status: 'pending',
        invoiced: false,
        paymentStatus: 'pending',
        location: null,
      });
      expect(json<WorkspaceLocation[]>(await get('/locations')).map((l) => l.id)).toEqual([ids.location]);
    }
  });
});
