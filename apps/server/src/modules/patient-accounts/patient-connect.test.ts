import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, device, json, type TestApp } from '../../test/test-app';
import { createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';
import { records } from '../../test/workspace-records';
import { REALM, acceptWithCode, codeOf, connectPath, expectError, invite, patientLogin } from './patient-accounts.testkit';

let t: TestApp;
let ana: Therapist;
let bea: Therapist;
let wsA: string;
let wsB: string;
const FILES = '/api/v1/patient/files';
const LINK = '/api/v1/public/patient-connect';

beforeAll(async () => {
  t = await createTestApp();
  ana = await therapist(t, 'ana@connect.test', 'Ana');
  bea = await therapist(t, 'bea@connect.test', 'Bea');
  wsA = (await createWorkspace(t, ana, 'Consulta Ana', 'freelance')).id;
  wsB = (await createWorkspace(t, bea, 'Centro Bea', 'freelance')).id;
}, 60_000);
afterAll(() => t?.close());

const newPatient = (token: string, ws: string) => records.patient(t, token, ws);
const status = async (token: string, ws: string, patientId: string) => json(await t.get(connectPath(ws, patientId), { token }));

describe('connecting a patient file to the patient’s account', () => {
  it('invite → link → «Te enviamos un código» → code: the account is made, the file connected, the patient signed in', async () => {
    const patientId = await newPatient(ana.accessToken, wsA);
    expect(await status(ana.accessToken, wsA, patientId)).toEqual({ status: 'not_invited' });
    const link = await invite(t, ana.accessToken, wsA, patientId, 'lucia@paciente.test');
    const mail = await t.lastMail('lucia@paciente.test');
    expect(mail.subject).toBe('Consulta Ana te invita a conectar con Diván');
    expect(mail.text).toContain(`http://divan.test/p/connect/${link}`);
    expect(await status(ana.accessToken, wsA, patientId)).toMatchObject({ status: 'invited', email: 'lucia@paciente.test' });

    const what = await t.get(`${LINK}/${link}`);
    expect(json(what)).toEqual({ workspaceName: 'Consulta Ana', therapistName: 'Ana', maskedEmail: 'l•••@paciente.test' });

    const session = await acceptWithCode(t, link, 'lucia@paciente.test');
    expect(session.file).toMatchObject({ patientFileId: patientId, workspaceId: wsA, workspaceName: 'Consulta Ana' });
    expect(await status(ana.accessToken, wsA, patientId)).toMatchObject({ status: 'connected', email: 'lucia@paciente.test' });
    const files = json<{ items: { patientFileId: string; patientName: string }[] }>(await t.get(FILES, { token: session.accessToken }));
    expect(files.items.map((f) => f.patientFileId)).toEqual([patientId]);
    expect(files.items[0]!.patientName).toMatch(/^Registro /);

    // The link is used: it shows nothing and connects nothing; the file is connected, so no new invitation.
    expectError(await t.get(`${LINK}/${link}`), 404, 'patient_connect_invitation_not_found');
    expectError(await t.post(`${LINK}/${link}/code`), 404, 'patient_connect_invitation_not_found');
    expectError(
      await t.post(connectPath(wsA, patientId), { email: 'otra@paciente.test' }, { token: ana.accessToken }),
      409,
      'patient_already_connected',
    );
    const audit = await t.get(`/api/v1/workspaces/${wsA}/audit-events`, { token: ana.accessToken });
    if (audit.statusCode === 200) expect(audit.body).toContain('patient.connected');
  });

  it('re-inviting replaces the previous invitation: the old link no longer works', async () => {
    const patientId = await newPatient(ana.accessToken, wsA);
    const first = await invite(t, ana.accessToken, wsA, patientId, 'mario@paciente.test');
    const second = await invite(t, ana.accessToken, wsA, patientId, 'mario.b@paciente.test');
    expectError(await t.get(`${LINK}/${first}`), 404, 'patient_connect_invitation_not_found');
    expect(json(await t.get(`${LINK}/${second}`)).maskedEmail).toBe('m•••@paciente.test');
    expect(await status(ana.accessToken, wsA, patientId)).toMatchObject({ status: 'invited', email: 'mario.b@paciente.test' });
    expectError(await t.get(`${LINK}/${'x'.repeat(43)}`), 404, 'patient_connect_invitation_not_found');
  });

  it('one account, files in two workspaces; signed in, the invitation must be to the account’s email; each side disconnects', async () => {
    const inA = await newPatient(ana.accessToken, wsA);
    const inB = await newPatient(bea.accessToken, wsB);
    const session = await acceptWithCode(t, await invite(t, ana.accessToken, wsA, inA, 'pablo@paciente.test'), 'pablo@paciente.test');

    // Another email's invitation is refused to this account, and stays usable.
    const other = await invite(t, bea.accessToken, wsB, inB, 'otro@paciente.test');
    expectError(await t.post(`${REALM}/connect`, { token: other }, { token: session.accessToken }), 403, 'patient_connect_email_mismatch');
    expect((await t.get(`${LINK}/${other}`)).statusCode).toBe(200);

    const link = await invite(t, bea.accessToken, wsB, inB, 'pablo@paciente.test');
    const res = await t.post(`${REALM}/connect`, { token: link }, { token: session.accessToken });
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res).file).toMatchObject({ patientFileId: inB, workspaceName: 'Centro Bea', therapistNames: ['Bea'] });
    const ids = async () =>
      json<{ items: { patientFileId: string }[] }>(await t.get(FILES, { token: session.accessToken })).items.map((f) => f.patientFileId);
    expect(await ids()).toEqual([inA, inB]);

    // A file that is not the patient's is as missing as one that does not exist.
    const stranger = await newPatient(ana.accessToken, wsA);
    expectError(await t.del(`${FILES}/${stranger}`, { token: session.accessToken }), 404, 'patient_file_not_found');
    expectError(await t.del(`${FILES}/${crypto.randomUUID()}`, { token: session.accessToken }), 404, 'patient_file_not_found');

    // The patient disconnects B; the therapist disconnects A.
    expect((await t.del(`${FILES}/${inB}`, { token: session.accessToken })).statusCode).toBe(204);
    expect(await ids()).toEqual([inA]);
    expect(await status(bea.accessToken, wsB, inB)).toEqual({ status: 'not_invited' });
    expect((await t.del(connectPath(wsA, inA), { token: ana.accessToken })).statusCode).toBe(204);
    expect(await ids()).toEqual([]);
    expect(await status(ana.accessToken, wsA, inA)).toEqual({ status: 'not_invited' });
    // The account stays: the patient still signs in, with nothing connected.
    expect((await patientLogin(t, 'pablo@paciente.test')).accessToken).toBeTruthy();
  });

  it('a code mailed for another account does not accept the link; a wrong code is refused', async () => {
    const patientId = await newPatient(ana.accessToken, wsA);
    const link = await invite(t, ana.accessToken, wsA, patientId, 'rosa@paciente.test');
    const sent = json(await t.post(`${LINK}/${link}/code`));
    const wrong = codeOf((await t.lastMail('rosa@paciente.test')).text) === '000000' ? '111111' : '000000';
    expectError(await t.post(`${LINK}/${link}`, { challenge: sent.challenge, code: wrong, ...device }), 400, 'invalid_code');
    // Pablo's own sign-in code, for Rosa's invitation.
    const started = json(await t.post(`${REALM}/login/challenge`, { email: 'pablo@paciente.test' }));
    const pabloCode = codeOf((await t.lastMail('pablo@paciente.test')).text);
    expectError(
      await t.post(`${LINK}/${link}`, { challenge: started.challenge, code: pabloCode, ...device }),
      403,
      'patient_connect_email_mismatch',
    );
    expect(await status(ana.accessToken, wsA, patientId)).toMatchObject({ status: 'invited' });
  });

  it('the chat, linked to the accounts at wiring, reaches the patient’s connected files and no other', async () => {
    const mine = await newPatient(ana.accessToken, wsA);
    const other = await newPatient(ana.accessToken, wsA);
    const s = await acceptWithCode(t, await invite(t, ana.accessToken, wsA, mine, 'chat@paciente.test'), 'chat@paciente.test');
    const actor = { kind: 'patient' as const, patientAccountId: s.accountId };
    await t.app.services.chat.sendAsPatient(actor, mine, { body: 'Hola, Ana' });
    expect((await t.app.services.chat.listForPatient(actor, mine)).items).toHaveLength(1);
    await expect(t.app.services.chat.listForPatient(actor, other)).rejects.toMatchObject({ code: 'patient_not_found' });
    // Disconnected, the file is out of the patient's reach at once.
    expect((await t.del(`${FILES}/${mine}`, { token: s.accessToken })).statusCode).toBe(204);
    await expect(t.app.services.chat.listForPatient(actor, mine)).rejects.toMatchObject({ code: 'patient_not_found' });
  });

  it('who may not update the patient cannot invite; bad input is a 400', async () => {
    const patientId = await newPatient(ana.accessToken, wsA);
    expectError(await t.post(connectPath(wsA, patientId), { email: 'x@y.test' }, { token: bea.accessToken }), 404, 'workspace_not_found');
    expectError(
      await t.post(connectPath(wsA, patientId), { email: 'no-es-un-email' }, { token: ana.accessToken }),
      400,
      'invalid_argument',
    );
    // Garbage in the link is one more unknown link (issue 24).
    expectError(await t.get(`${LINK}/corto`), 404, 'patient_connect_invitation_not_found');
  });
});
