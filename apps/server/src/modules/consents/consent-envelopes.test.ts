import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { ConsentEnvelope, ConsentEnvelopeList, PublicConsent, Workspace } from '@divan/core';
import { png } from '../../test/images';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { createWorkspace, therapist, withWorkspace, type Therapist } from '../../test/workspace-fixtures';
import { ADULT_TEMPLATE, DRAWN, MINOR_TEMPLATE, consentKit, expectRefused, mailedToken, tokenOf } from './consent-test-kit';

let now = new Date('2026-11-26T10:00:00Z');
let t: TestApp;
let owner: Therapist;
let marta: Therapist;
let outsider: Therapist;
let ws: Workspace;
let kit: ReturnType<typeof consentKit>;
let minorTemplate: string;
let adultTemplate: string;
let child: string;
let teen: string;
let adult: string;
const C = () => `/api/v1/workspaces/${ws.id}/consents`;
const guardians = {
  guardian: { name: 'Lucía Gómez', email: 'lucia@casa.test' },
  secondGuardian: { name: 'Jorge Gómez', email: 'jorge@casa.test' },
};

beforeAll(async () => {
  t = await createTestApp({}, { clock: () => now });
  ({
    owner,
    ws,
    members: { marta },
  } = await withWorkspace(t, 'Clínica Envíos', {
    owner: { email: 'olga@envios.test', firstName: 'Olga' },
    plan: { id: 'team', seats: 10 },
    members: { marta: { email: 'marta@envios.test', firstName: 'Marta', role: 'Terapeuta' } },
  }));
  outsider = await therapist(t, 'otro@envios.test', 'Óscar');
  await createWorkspace(t, outsider, 'Otra consulta', 'freelance');
  kit = consentKit(
    t,
    () => ws.id,
    () => owner,
  );
  minorTemplate = await kit.template(MINOR_TEMPLATE);
  adultTemplate = await kit.template(ADULT_TEMPLATE);
  child = await kit.patient({ firstName: 'Pablo', lastName: 'Gómez', birthdate: '2012-05-01' });
  teen = await kit.patient({ firstName: 'Sara', lastName: 'Ruiz', email: 'sara@joven.test', birthdate: '2009-01-10' });
  adult = await kit.patient({ firstName: 'Ana', lastName: 'Sanz', email: 'ana@adulta.test', birthdate: '1990-03-03' });
}, 60_000);
afterAll(() => t?.close());

describe('sending a consent', () => {
  it('a minor under 16: both guardians by default, each with their own link; their names and emails are required', async () => {
    expectRefused(await kit.send({ patientId: child, templateId: minorTemplate }), 400, 'consent_guardian_data_required');
    expectRefused(
      await kit.send({ patientId: child, templateId: minorTemplate, signers: { guardian: guardians.guardian } }),
      400,
      'consent_second_guardian_data_required',
    );
    const sent = await kit.sent({ patientId: child, templateId: minorTemplate, signers: guardians });
    expect(sent).toMatchObject({
      state: 'sent',
      documentTitle: 'Consentimiento para el tratamiento de Pablo Gómez',
      patient: { id: child, name: 'Pablo Gómez' },
      template: { id: minorTemplate, version: 1 },
      minorException: null,
    });
    expect(sent.links.map((l) => [l.role, l.mailed])).toEqual([
      ['guardian', true],
      ['secondGuardian', false],
    ]);
    expect(new Set(sent.links.map((l) => l.url)).size).toBe(2);
    expect(sent.links[0]!.url).toMatch(/^https?:\/\/[^/]+\/consents\/sign\/[A-Za-z0-9_-]{43}$/);
    // Only the hash of a token is stored.
    const stored = await t.rows<{ token_hash: string }>(sql`SELECT token_hash FROM consent_signers`);
    for (const l of sent.links) expect(stored.map((r) => r.token_hash)).not.toContain(tokenOf(l.url));
    expect(sent.signers.every((s) => s.expiresAt === new Date(now.getTime() + 30 * 86_400_000).toISOString())).toBe(true);
  });

  it('the art. 156 exception: one guardian, with the reason recorded and the other guardian informed', async () => {
    const exception = { reason: 'gender_violence_report', otherGuardianInformed: true };
    expectRefused(
      await kit.send({ patientId: child, templateId: minorTemplate, signers: guardians, minorException: { reason: 'otra' } }),
      400,
      'invalid_argument',
    );
    expectRefused(await kit.send({ patientId: adult, templateId: adultTemplate, minorException: exception }), 400, 'invalid_argument');
    const sent = await kit.sent({
      patientId: child,
      templateId: minorTemplate,
      signers: { guardian: guardians.guardian },
      minorException: exception,
    });
    expect(sent.signers.map((s) => s.role)).toEqual(['guardian']);
    expect(sent.minorException).toEqual(exception);
    const [created] = await t.rows<{ details: { minorException: unknown } }>(
      sql`SELECT details FROM consent_envelope_events WHERE envelope_id = ${sent.id} AND type = 'created'`,
    );
    expect(created!.details.minorException).toEqual(exception);
  });

  it('a patient of 16 or more signs themselves, and the page says so; an adult at the email of the file', async () => {
    const forTeen = await kit.sent({ patientId: teen, templateId: minorTemplate, signers: guardians });
    expect(forTeen.signers).toMatchObject([{ role: 'patient', name: 'Sara Ruiz', email: 'sara@joven.test' }]);
    const page = json<PublicConsent>(await kit.view(await mailedToken(t, 'sara@joven.test')));
    expect(page).toMatchObject({ patientSignsAsMinor: true, signer: { role: 'patient' }, others: [] });
    const forAdult = await kit.sent({ patientId: adult, templateId: adultTemplate });
    expect(forAdult.signers).toMatchObject([{ role: 'patient', name: 'Ana Sanz', email: 'ana@adulta.test' }]);
    expect((await t.lastMail('ana@adulta.test')).subject).toBe('Clínica Envíos te pide firmar «Consentimiento informado de Ana Sanz»');
    const noEmail = await kit.patient({ firstName: 'Sin', lastName: 'Email', birthdate: '1985-01-01' });
    expectRefused(await kit.send({ patientId: noEmail, templateId: adultTemplate }), 400, 'consent_patient_data_required');
  });

  it('an archived template or an unknown patient cannot be sent', async () => {
    const archived = await kit.template({ ...ADULT_TEMPLATE, name: 'Para archivar' });
    await t.del(`/api/v1/workspaces/${ws.id}/consent-templates/${archived}`, { token: owner.accessToken });
    expectRefused(await kit.send({ patientId: adult, templateId: archived }), 404, 'consent_not_found');
    expectRefused(await kit.send({ patientId: crypto.randomUUID(), templateId: adultTemplate }), 404, 'patient_not_found');
  });
});

describe('listing, permissions and revoking', () => {
  it('lists with filters and pages; the patient tab lists its own', async () => {
    const all = json<ConsentEnvelopeList>(await t.get(`${C()}?pageSize=2`, { token: owner.accessToken }));
    expect(all.items).toHaveLength(2);
    expect(all.total).toBeGreaterThanOrEqual(4);
    const ofChild = json<ConsentEnvelopeList>(
      await t.get(`/api/v1/workspaces/${ws.id}/patients/${child}/consents`, { token: owner.accessToken }),
    );
    expect(ofChild.items.every((e) => e.patient.id === child)).toBe(true);
    expect(ofChild.total).toBe(2);
    const byTemplate = json<ConsentEnvelopeList>(
      await t.get(`${C()}?templateId=${adultTemplate}&state=sent`, { token: owner.accessToken }),
    );
    expect(byTemplate.items.map((e) => e.patient.name)).toEqual(['Ana Sanz']);
    expectRefused(await t.get(`${C()}?state=firmado`, { token: owner.accessToken }), 400, 'invalid_argument');
  });

  it('a clinic therapist sees only what she sent for her patients: others are 404, and so is another workspace', async () => {
    const theirs = json<ConsentEnvelopeList>(await t.get(C(), { token: owner.accessToken })).items[0]!;
    expectRefused(await t.get(`${C()}/${theirs.id}`, { token: marta.accessToken }), 404, 'consent_not_found');
    expectRefused(await t.post(`${C()}/${theirs.id}/revoke`, {}, { token: marta.accessToken }), 404, 'consent_not_found');
    expectRefused(await kit.send({ patientId: adult, templateId: adultTemplate }, marta), 404, 'patient_not_found');
    const own = await kit.patient({ firstName: 'Mía', lastName: 'Paz', email: 'mia@paz.test', birthdate: '1970-02-02' }, marta);
    const sent = await kit.sent({ patientId: own, templateId: adultTemplate }, marta);
    const list = json<ConsentEnvelopeList>(await t.get(C(), { token: marta.accessToken }));
    expect(list.items.map((e) => e.id)).toEqual([sent.id]);
    expect(json<ConsentEnvelope>(await t.get(`${C()}/${sent.id}`, { token: owner.accessToken })).therapist).toEqual({
      id: marta.userId,
      name: 'Marta',
    });
    expectRefused(await t.get(`${C()}/${sent.id}`, { token: outsider.accessToken }), 404, 'workspace_not_found');
    expectRefused(await t.get(`${C()}/${sent.id}/pdf`, { token: marta.accessToken }), 404, 'consent_not_found');
  });

  it("the therapist's signature on a sent consent is the sender's own, never the template author's", async () => {
    // Olga drew the signature kept on the template: she sends without drawing again.
    const byOlga = await kit.sent({ patientId: child, templateId: minorTemplate, signers: guardians });
    const olgaPage = json<PublicConsent>(await kit.view(tokenOf(byOlga.links[0]!.url)));
    expect(olgaPage.therapistSignature).toEqual({ image: DRAWN, name: 'Olga' });
    // Marta, another therapist of the clinic, must sign herself.
    const mine = await kit.patient({ firstName: 'Leo', lastName: 'Paz', birthdate: '2015-06-06' }, marta);
    const body = { patientId: mine, templateId: minorTemplate, signers: guardians };
    const refused = expectRefused(await kit.send(body, marta), 400, 'consent_therapist_signature_required');
    expect(refused.message).toMatch(/otra persona/);
    expectRefused(await kit.send({ ...body, therapistSignature: 'data:image/png;base64,AAAA' }, marta), 400, 'consent_invalid_signature');
    const hers = `data:image/png;base64,${png(320, 90).toString('base64')}`;
    const byMarta = await kit.sent({ ...body, therapistSignature: hers }, marta);
    const martaPage = json<PublicConsent>(await kit.view(tokenOf(byMarta.links[0]!.url)));
    expect(martaPage.therapistSignature).toEqual({ image: hers, name: 'Marta' });
    // A template without the therapist's signature ignores one given.
    const adultSent = await kit.sent({ patientId: adult, templateId: adultTemplate, therapistSignature: hers });
    expect(json<PublicConsent>(await kit.view(tokenOf(adultSent.links[0]!.url))).therapistSignature).toBeNull();
  });

  it('revoking: the links stop working, a second revoke changes nothing', async () => {
    const sent = await kit.sent({ patientId: adult, templateId: adultTemplate });
    const first = json<ConsentEnvelope>(await t.post(`${C()}/${sent.id}/revoke`, {}, { token: owner.accessToken }));
    expect(first).toMatchObject({ state: 'revoked', revokedAt: now.toISOString() });
    const again = await t.post(`${C()}/${sent.id}/revoke`, {}, { token: owner.accessToken });
    expect(json<ConsentEnvelope>(again).revokedAt).toBe(first.revokedAt);
    expectRefused(await kit.view(tokenOf(sent.links[0]!.url)), 404, 'consent_not_found');
    const audit = await t.rows<{ action: string }>(sql`SELECT action FROM audit_events WHERE action LIKE 'consent.%' ORDER BY created_at`);
    expect(audit.map((a) => a.action)).toContain('consent.revoked');
  });
});

describe('reminders and expiry', () => {
  it('unsigned signers are mailed again 3 and 7 days after sending, once each; links expire after 30 days', async () => {
    const sent = await kit.sent({ patientId: teen, templateId: adultTemplate });
    const reminders = async () =>
      (await t.app.services.mailer.list('sara@joven.test', 50)).filter((m) => m.subject.startsWith('Recordatorio')).length;
    const start = now;
    const before = await reminders();
    now = new Date(start.getTime() + 2 * 86_400_000);
    await t.app.services.consentSigning.remindDue();
    expect(await reminders()).toBe(before);
    now = new Date(start.getTime() + 3 * 86_400_000 + 3_600_000);
    await t.app.services.consentSigning.remindDue();
    await t.app.services.consentSigning.remindDue();
    expect(await reminders()).toBe(before + 1 + 1); // this one, and the teen's earlier consent sent at the same time
    now = new Date(start.getTime() + 8 * 86_400_000);
    await t.app.services.jobs.runSweeps();
    await t.app.services.consentSigning.remindDue();
    expect(await reminders()).toBe(before + 4);
    const events = await t.rows<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM consent_envelope_events WHERE envelope_id = ${sent.id} AND type = 'reminded'`,
    );
    expect(events[0]!.n).toBe(2);
    now = new Date(start.getTime() + 31 * 86_400_000);
    expectRefused(await kit.view(tokenOf(sent.links[0]!.url)), 404, 'consent_not_found');
    now = start;
  });
});

describe('variables left blank (issue 24)', () => {
  it('without a registration number the check lists it, sending refuses until confirmed, and once filled nothing is missing', async () => {
    const rgpd = await kit.template({
      ...ADULT_TEMPLATE,
      name: 'RGPD con colegiado',
      sections: [
        {
          title: 'Responsable',
          body: '<p>{{terapeuta.nombre}}, psicólogo/a colegiado/a n.º {{terapeuta.colegiado}}.</p>',
          checkbox: { label: 'Acepto', required: true },
        },
      ],
    });
    const check = (templateId: string, token = owner.accessToken) =>
      t.get(`/api/v1/workspaces/${ws.id}/patients/${adult}/consents/check/${templateId}`, { token });
    const found = await check(rgpd);
    expect(found.statusCode, found.body).toBe(200);
    expect(json(found)).toEqual({
      missing: [{ variable: 'terapeuta.colegiado', message: 'Falta tu número de colegiado/a', source: 'profile' }],
    });
    expect(json(await check(adultTemplate))).toEqual({ missing: [] });

    const refused = expectRefused(await kit.send({ patientId: adult, templateId: rgpd }), 409, 'consent_variables_missing');
    expect(refused.message).toBe('Falta tu número de colegiado/a. Complétalo o confirma que quieres enviarlo así.');
    expect((refused as unknown as { fields: { path: string }[] }).fields).toEqual([
      { path: 'variables.terapeuta.colegiado', message: 'Falta tu número de colegiado/a' },
    ]);
    const [{ n: none }] = (await t.rows<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM consent_envelopes WHERE template_id = ${rgpd}`,
    )) as [{ n: number }];
    expect(none).toBe(0);

    // Sent anyway, the sender having seen it: the document says so plainly.
    const anyway = await kit.sent({ patientId: adult, templateId: rgpd, confirmMissing: true });
    expect(json<PublicConsent>(await kit.view(tokenOf(anyway.links[0]!.url))).sections[0]!.body).toContain('colegiado/a n.º .');

    // Filled in the profile: nothing is missing and the number is in the document.
    expect((await t.patch('/api/v1/me', { registrationNumber: 'M-31416' }, { token: owner.accessToken })).statusCode).toBe(200);
    expect(json(await check(rgpd))).toEqual({ missing: [] });
    const filled = await kit.sent({ patientId: adult, templateId: rgpd });
    expect(json<PublicConsent>(await kit.view(tokenOf(filled.links[0]!.url))).sections[0]!.body).toContain('n.º M-31416.');
    // Only who may send asks.
    expectRefused(await check(rgpd, outsider.accessToken), 404, 'workspace_not_found');
  });
});
