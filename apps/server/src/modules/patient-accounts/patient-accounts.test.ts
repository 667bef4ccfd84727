import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, createTestApp, device, json, type TestApp } from '../../test/test-app';
import { signIn } from '../../test/auth-flows';
import { createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';
import { records } from '../../test/workspace-records';
import { REALM, codeOf, connectedPatient, expectError, patientLogin, type PatientSession } from './patient-accounts.testkit';

let t: TestApp;
let ana: Therapist;
let wsA: string;
let patientId: string;
let lucia: PatientSession;

beforeAll(async () => {
  t = await createTestApp();
  ana = await therapist(t, 'ana@realm.test', 'Ana');
  wsA = (await createWorkspace(t, ana, 'Consulta Ana', 'freelance')).id;
  patientId = await records.patient(t, ana.accessToken, wsA);
  lucia = await connectedPatient(t, ana.accessToken, wsA, patientId, 'lucia@paciente.test');
}, 60_000);
afterAll(() => t?.close());

const mailCount = async (to: string) => (await t.app.services.mailer.list(to, 50)).length;

describe('the patients’ realm: sign-in with a mailed code', () => {
  it('two steps: a code by mail, then the code; the token carries realm patients', async () => {
    const session = await patientLogin(t, 'LUCIA@paciente.test'.toLowerCase());
    expect(session.accountId).toBe(lucia.accountId);
    const claims = JSON.parse(Buffer.from(session.accessToken.split('.')[1]!, 'base64url').toString()) as { realm: string; sub: string };
    expect(claims).toMatchObject({ realm: 'patients', sub: lucia.accountId });
    expect((await t.get('/api/v1/patient/files', { token: session.accessToken })).statusCode).toBe(200);
  });

  it('never tells whether an email has an account: the same answer, no mail, and its challenge signs nobody in', async () => {
    const known = await t.post(`${REALM}/login/challenge`, { email: 'lucia@paciente.test' });
    const before = await mailCount('nadie@paciente.test');
    const unknown = await t.post(`${REALM}/login/challenge`, { email: 'nadie@paciente.test' });
    expect([unknown.statusCode, Object.keys(json(unknown)).sort()]).toEqual([known.statusCode, Object.keys(json(known)).sort()]);
    expect(json(unknown).challenge).toMatch(/^[0-9a-f-]{36}$/);
    expect(await mailCount('nadie@paciente.test')).toBe(before);
    expectError(
      await t.post(`${REALM}/login`, { challenge: json(unknown).challenge, code: '123456', ...device }),
      404,
      'challenge_not_found',
    );
    // A therapist's email is no patient account either.
    const therapistEmail = await t.post(`${REALM}/login/challenge`, { email: 'ana@realm.test' });
    expect(therapistEmail.statusCode).toBe(200);
  });

  it('a wrong code is refused; the code works once', async () => {
    const started = json(await t.post(`${REALM}/login/challenge`, { email: 'lucia@paciente.test' }));
    const code = codeOf((await t.lastMail('lucia@paciente.test')).text);
    const wrong = code === '000000' ? '111111' : '000000';
    expectError(await t.post(`${REALM}/login`, { challenge: started.challenge, code: wrong, ...device }), 400, 'invalid_code');
    expect((await t.post(`${REALM}/login`, { challenge: started.challenge, code, ...device })).statusCode).toBe(200);
    expectError(await t.post(`${REALM}/login`, { challenge: started.challenge, code, ...device }), 404, 'challenge_not_found');
  });

  it('refresh rotates the token; logout ends the session and its access token', async () => {
    const s = await patientLogin(t, 'lucia@paciente.test');
    const refreshed = await t.get(`${REALM}/token`, { token: s.refreshToken });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const next = json<{ accessToken: string; refreshToken: string }>(refreshed);
    expect((await t.get('/api/v1/patient/files', { token: next.accessToken })).statusCode).toBe(200);
    expect((await t.del(`${REALM}/sessions`, { token: next.refreshToken })).statusCode).toBe(204);
    expectError(await t.get('/api/v1/patient/files', { token: next.accessToken }), 401, 'invalid_access_token');
    expectError(await t.get(`${REALM}/token`, { token: next.refreshToken }), 401, 'session_not_found');
  });
});

describe('the realms are separate, both ways', () => {
  it('a patient’s access token opens nothing of the therapists’ API', async () => {
    for (const url of [
      '/api/v1/me',
      '/api/v1/workspaces',
      `/api/v1/workspaces/${wsA}/patients`,
      `/api/v1/workspaces/${wsA}/patients/${patientId}`,
    ])
      expectError(await t.get(url, { token: lucia.accessToken }), 401, 'invalid_access_token');
  });

  it('a therapist’s access token opens nothing of the patient’s API', async () => {
    expectError(await t.get('/api/v1/patient/files', { token: ana.accessToken }), 401, 'invalid_access_token');
    expectError(await t.del(`/api/v1/patient/files/${patientId}`, { token: ana.accessToken }), 401, 'invalid_access_token');
    expectError(await t.post(`${REALM}/connect`, { token: 'x'.repeat(43) }, { token: ana.accessToken }), 401, 'invalid_access_token');
  });

  it('a refresh token works only in its own realm, and the other realm’s refusal does not end its session', async () => {
    const s = await patientLogin(t, 'lucia@paciente.test');
    expectError(await t.get(`${AUTH}/token`, { token: s.refreshToken }), 401, 'session_not_found');
    expect((await t.del(`${AUTH}/sessions`, { token: s.refreshToken })).statusCode).toBe(204);
    expect((await t.get(`${REALM}/token`, { token: s.refreshToken })).statusCode).toBe(200);

    const tokens = await signIn(t, 'ana@realm.test');
    expectError(await t.get(`${REALM}/token`, { token: tokens.refreshToken }), 401, 'session_not_found');
    expect((await t.get(`${AUTH}/token`, { token: tokens.refreshToken })).statusCode).toBe(200);
  });

  it('a therapist’s sign-in challenge does not sign in a patient, nor the other way round', async () => {
    const started = json(await t.post(`${REALM}/login/challenge`, { email: 'lucia@paciente.test' }));
    const code = codeOf((await t.lastMail('lucia@paciente.test')).text);
    expectError(await t.post(`${AUTH}/login`, { challenge: started.challenge, code, ...device }), 404, 'challenge_not_found');
    expect((await t.post(`${REALM}/login`, { challenge: started.challenge, code, ...device })).statusCode).toBe(200);
  });
});
