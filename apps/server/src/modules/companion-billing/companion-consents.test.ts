import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { CompanionConsent, PublicConsent } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';
import { ADULT_TEMPLATE, DRAWN, MINOR_TEMPLATE, consentKit, mailedToken, tokenOf } from '../consents/consent-test-kit';
import { connectedPatient, expectError, type PatientSession } from '../patient-accounts/patient-accounts.testkit';

let t: TestApp;
let ines: Therapist;
let ws: string;
let kit: ReturnType<typeof consentKit>;
let adultTemplate: string;
let minorTemplate: string;
let luciaFile: string;
let pabloFile: string;
let childFile: string;
let lucia: PatientSession;
let pablo: PatientSession;
let father: PatientSession;

const C = (fileId: string) => `/api/v1/patient/files/${fileId}/consents`;
const list = async (fileId: string, who: PatientSession) => {
  const res = await t.get(C(fileId), { token: who.accessToken });
  expect(res.statusCode, res.body).toBe(200);
  return json<{ items: CompanionConsent[] }>(res).items;
};
const statusOf = async (fileId: string, who: PatientSession, id: string) => (await list(fileId, who)).find((c) => c.id === id)?.status;
const signLink = (fileId: string, who: PatientSession, id: string) =>
  t.post(`${C(fileId)}/${id}/sign-link`, {}, { token: who.accessToken });
const urlOf = async (fileId: string, who: PatientSession, id: string) => {
  const res = await signLink(fileId, who, id);
  expect(res.statusCode, res.body).toBe(200);
  return json<{ url: string }>(res).url;
};
const adultBody = {
  data: { fullName: 'Lucía Sanz', email: 'lucia@firma-companion.test' },
  checkboxes: [1],
  sectionCount: 2,
  signature: { kind: 'typed' as const, name: 'Lucía Sanz' },
};
const guardianBody = (name: string) => ({
  data: { fullName: name, idNumber: '12345678Z' },
  checkboxes: [2],
  sectionCount: 3,
  signature: { kind: 'drawn' as const, png: DRAWN },
});

beforeAll(async () => {
  t = await createTestApp();
  ines = await therapist(t, 'ines@firma-companion.test', 'Inés');
  ws = (await createWorkspace(t, ines, 'Consulta Inés', 'freelance')).id;
  kit = consentKit(
    t,
    () => ws,
    () => ines,
  );
  adultTemplate = await kit.template(ADULT_TEMPLATE);
  minorTemplate = await kit.template(MINOR_TEMPLATE);
  luciaFile = await kit.patient({ firstName: 'Lucía', lastName: 'Sanz', email: 'lucia@firma-companion.test', birthdate: '1990-03-03' });
  pabloFile = await kit.patient({ firstName: 'Pablo', lastName: 'Ruiz', email: 'pablo@firma-companion.test', birthdate: '1985-01-01' });
  childFile = await kit.patient({ firstName: 'Leo', lastName: 'Gómez', birthdate: '2016-05-01' });
  lucia = await connectedPatient(t, ines.accessToken, ws, luciaFile, 'lucia@firma-companion.test');
  pablo = await connectedPatient(t, ines.accessToken, ws, pabloFile, 'pablo@firma-companion.test');
  father = await connectedPatient(t, ines.accessToken, ws, childFile, 'jorge@firma-companion.test');
}, 60_000);
afterAll(() => t?.close());

describe('the consents of the companion', () => {
  it('lists a consent to sign, opens the signing page with the mailed link, and after signing offers the sealed PDF', async () => {
    const sent = await kit.sent({ patientId: luciaFile, templateId: adultTemplate });
    const [item] = await list(luciaFile, lucia);
    expect(item).toMatchObject({
      id: sent.id,
      title: 'Consentimiento informado de Lucía Sanz',
      status: 'to_sign',
      signedAt: null,
      completedAt: null,
      canDownload: false,
    });
    expect(Date.parse(item!.sentAt)).not.toBeNaN();
    expectError(await t.get(`${C(luciaFile)}/${sent.id}/download`, { token: lucia.accessToken }), 409, 'companion_consent_not_completed');

    const url = await urlOf(luciaFile, lucia, sent.id);
    expect(url).toMatch(new RegExp(`/consents/sign/[A-Za-z0-9_-]+\\?volver=${encodeURIComponent(`/p/${luciaFile}/consentimientos`)}$`));
    expect(tokenOf(url)).toBe(await mailedToken(t, 'lucia@firma-companion.test'));
    const page = await kit.view(tokenOf(url));
    expect(json<PublicConsent>(page).signer).toMatchObject({ role: 'patient', signedAt: null });
    expect((await kit.sign(tokenOf(url), adultBody)).statusCode).toBe(200);

    const [done] = await list(luciaFile, lucia);
    expect(done).toMatchObject({ status: 'signed', canDownload: true });
    expect(done!.signedAt).not.toBeNull();
    expect(done!.completedAt).not.toBeNull();
    expectError(await signLink(luciaFile, lucia, sent.id), 409, 'consent_already_signed');
    const pdf = await t.get(`${C(luciaFile)}/${sent.id}/download`, { token: lucia.accessToken });
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toMatch(/^attachment;/);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('a revoked consent cannot be signed; an expired link neither', async () => {
    const revoked = await kit.sent({ patientId: luciaFile, templateId: adultTemplate });
    expect((await t.post(`/api/v1/workspaces/${ws}/consents/${revoked.id}/revoke`, {}, { token: ines.accessToken })).statusCode).toBe(200);
    expect(await statusOf(luciaFile, lucia, revoked.id)).toBe('revoked');
    expectError(await signLink(luciaFile, lucia, revoked.id), 409, 'companion_consent_not_signable');

    const late = await kit.sent({ patientId: luciaFile, templateId: adultTemplate });
    await t.rows(sql`UPDATE consent_signers SET expires_at = now() - interval '1 day' WHERE envelope_id = ${late.id}`);
    expect(await statusOf(luciaFile, lucia, late.id)).toBe('expired');
    expectError(await signLink(luciaFile, lucia, late.id), 409, 'companion_consent_expired');
  });

  it("a guardian's account signs in turn: the second guardian waits until the first has signed", async () => {
    const sent = await kit.sent({
      patientId: childFile,
      templateId: minorTemplate,
      signers: {
        guardian: { name: 'Marta Gómez', email: 'marta@firma-companion.test' },
        secondGuardian: { name: 'Jorge Gómez', email: 'jorge@firma-companion.test' },
      },
    });
    expect(await statusOf(childFile, father, sent.id)).toBe('waiting');
    expectError(await signLink(childFile, father, sent.id), 409, 'companion_consent_not_your_turn');

    expect((await kit.sign(await mailedToken(t, 'marta@firma-companion.test'), guardianBody('Marta Gómez'))).statusCode).toBe(200);
    expect(await statusOf(childFile, father, sent.id)).toBe('to_sign');
    const url = await urlOf(childFile, father, sent.id);
    expect(json<PublicConsent>(await kit.view(tokenOf(url))).signer).toMatchObject({ role: 'secondGuardian', name: 'Jorge Gómez' });
  });

  it('another patient reaches nothing of the file: its list, link and PDF answer 404', async () => {
    const [signed] = await list(luciaFile, lucia);
    expectError(await t.get(C(luciaFile), { token: pablo.accessToken }), 404, 'patient_file_not_found');
    expectError(await signLink(luciaFile, pablo, signed!.id), 404, 'patient_file_not_found');
    expectError(await t.get(`${C(luciaFile)}/${signed!.id}/download`, { token: pablo.accessToken }), 404, 'patient_file_not_found');
    // Lucía's consent asked through Pablo's own file: not his.
    expectError(await signLink(pabloFile, pablo, signed!.id), 404, 'consent_not_found');
    expectError(await t.get(`${C(pabloFile)}/${signed!.id}/download`, { token: pablo.accessToken }), 404, 'consent_not_found');
    expect(await list(pabloFile, pablo)).toEqual([]);
    expectError(await t.get(C(luciaFile), { token: ines.accessToken }), 401, 'invalid_access_token');
  });
});
