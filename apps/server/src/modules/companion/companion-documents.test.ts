import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanionDocument } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';
import { records } from '../../test/workspace-records';
import { connectedPatient, expectError, type PatientSession } from '../patient-accounts/patient-accounts.testkit';

let t: TestApp;
let ana: Therapist;
let ws: string;
let fileA: string;
let fileB: string;
let lucia: PatientSession;
let pablo: PatientSession;
let shared: string;
let unshared: string;
let ofB: string;

const D = (fileId: string) => `/api/v1/patient/files/${fileId}/documents`;
const share = async (fileId: string, documentId: string) => {
  const res = await t.put(
    `/api/v1/workspaces/${ws}/patients/${fileId}/documents/${documentId}/sharing`,
    { shared: true },
    { token: ana.accessToken },
  );
  expect(res.statusCode, res.body).toBe(200);
};

beforeAll(async () => {
  t = await createTestApp();
  ana = await therapist(t, 'ana@docs-companion.test', 'Ana');
  ws = (await createWorkspace(t, ana, 'Consulta Ana', 'freelance')).id;
  [fileA, fileB] = await Promise.all([records.patient(t, ana.accessToken, ws), records.patient(t, ana.accessToken, ws)]);
  shared = await records.document(t, ana.accessToken, ws, fileA);
  unshared = await records.document(t, ana.accessToken, ws, fileA);
  ofB = await records.document(t, ana.accessToken, ws, fileB);
  await share(fileA, shared);
  await share(fileB, ofB);
  lucia = await connectedPatient(t, ana.accessToken, ws, fileA, 'lucia@docs-companion.test');
  pablo = await connectedPatient(t, ana.accessToken, ws, fileB, 'pablo@docs-companion.test');
}, 60_000);
afterAll(() => t?.close());

describe('the patient’s own account', () => {
  it('GET /patient/me: the signed-in account', async () => {
    const res = await t.get('/api/v1/patient/me', { token: lucia.accessToken });
    expect([res.statusCode, res.json()]).toEqual([200, { id: lucia.accountId, email: 'lucia@docs-companion.test', firstName: 'Registro' }]);
    expectError(await t.get('/api/v1/patient/me', { token: ana.accessToken }), 401, 'invalid_access_token');
  });
});

describe('the documents shared with the patient', () => {
  it('lists only the shared ones: name, type, size, date', async () => {
    const res = await t.get(D(fileA), { token: lucia.accessToken });
    expect(res.statusCode, res.body).toBe(200);
    const items = json<{ items: CompanionDocument[] }>(res).items;
    expect(items.map((d) => d.id)).toEqual([shared]);
    expect(items[0]).toMatchObject({
      contentType: expect.stringContaining('text/plain'),
      size: Buffer.byteLength('Informe de evolución.\n'),
    });
    expect(items[0]!.name).toMatch(/^informe-.*\.txt$/);
    expect(Date.parse(items[0]!.createdAt)).not.toBeNaN();
  });

  it('downloads a shared one’s bytes; an unshared one, or another file’s, is not found', async () => {
    const res = await t.get(`${D(fileA)}/${shared}/download`, { token: lucia.accessToken });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toBe('Informe de evolución.\n');
    expect(res.headers['content-disposition']).toMatch(/^attachment;/);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expectError(await t.get(`${D(fileA)}/${unshared}/download`, { token: lucia.accessToken }), 404, 'document_not_found');
    expectError(await t.get(`${D(fileA)}/${ofB}/download`, { token: lucia.accessToken }), 404, 'document_not_found');
  });

  it('another patient’s file answers 404; a therapist’s token 401', async () => {
    expectError(await t.get(D(fileA), { token: pablo.accessToken }), 404, 'patient_file_not_found');
    expectError(await t.get(`${D(fileA)}/${shared}/download`, { token: pablo.accessToken }), 404, 'patient_file_not_found');
    expect(json<{ items: CompanionDocument[] }>(await t.get(D(fileB), { token: pablo.accessToken })).items.map((d) => d.id)).toEqual([ofB]);
    expectError(await t.get(D(fileA), { token: ana.accessToken }), 401, 'invalid_access_token');
  });

  it('a document no longer shared, or deleted, leaves the list', async () => {
    await t.put(`/api/v1/workspaces/${ws}/patients/${fileB}/documents/${ofB}/sharing`, { shared: false }, { token: ana.accessToken });
    expect(json<{ items: unknown[] }>(await t.get(D(fileB), { token: pablo.accessToken })).items).toEqual([]);
    expectError(await t.get(`${D(fileB)}/${ofB}/download`, { token: pablo.accessToken }), 404, 'document_not_found');
    expect((await t.del(`/api/v1/workspaces/${ws}/patients/${fileA}/documents/${shared}`, { token: ana.accessToken })).statusCode).toBe(
      204,
    );
    expect(json<{ items: unknown[] }>(await t.get(D(fileA), { token: lucia.accessToken })).items).toEqual([]);
  });

  it('a deleted file (blocked for the legal period) is not reachable', async () => {
    expect((await t.del(`/api/v1/workspaces/${ws}/patients/${fileB}`, { token: ana.accessToken })).statusCode).toBeLessThan(300);
    expectError(await t.get(D(fileB), { token: pablo.accessToken }), 404, 'patient_file_not_found');
    expectError(await t.get(`/api/v1/patient/files/${fileB}/sessions`, { token: pablo.accessToken }), 404, 'patient_file_not_found');
  });
});
