import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { PublicConsent, SentConsent, SignConsentBody, Workspace } from '@divan/core';
import { verifySealed } from '../../platform/documents/seal';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { until } from '../../test/until';
import { pdfText, skipPdfChecks } from '../../test/pdf-tools';
import { createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';
import { ADULT_TEMPLATE, DRAWN, MINOR_TEMPLATE, consentKit, expectRefused, mailedToken, tokenOf } from './consent-test-kit';

let t: TestApp;
let owner: Therapist;
let ws: Workspace;
let kit: ReturnType<typeof consentKit>;
let minorTemplate: string;
let adultTemplate: string;
let child: string;
let adult: string;

/** pdfsig's report (poppler-utils), the outside judge of the seal; null without it. */
function pdfsig(pdf: Buffer): string | null {
  if (spawnSync('pdfsig', ['-v']).error) return null;
  const dir = mkdtempSync(join(tmpdir(), 'divan-consent-'));
  try {
    writeFileSync(join(dir, 'f.pdf'), pdf);
    const run = spawnSync('pdfsig', [join(dir, 'f.pdf')], { encoding: 'utf8' });
    return `${run.stdout}${run.stderr}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const guardianBody = (over: Partial<SignConsentBody> = {}): SignConsentBody => ({
  data: { fullName: 'Lucía Gómez Ruiz', idNumber: '12345678Z' },
  checkboxes: [2],
  sectionCount: 3,
  signature: { kind: 'drawn', png: DRAWN },
  ...over,
});

beforeAll(async () => {
  t = await createTestApp();
  owner = await therapist(t, 'ines@firmas.test', 'Inés');
  await t.app.services.users.updateProfile(owner.userId, { lastName: 'Prieto', registrationNumber: 'M-777' });
  ws = await createWorkspace(t, owner, 'Consulta Firmas', 'freelance');
  kit = consentKit(
    t,
    () => ws.id,
    () => owner,
  );
  minorTemplate = await kit.template(MINOR_TEMPLATE);
  adultTemplate = await kit.template(ADULT_TEMPLATE);
  child = await kit.patient({ firstName: 'Pablo', lastName: 'Gómez', birthdate: '2012-05-01' });
  adult = await kit.patient({ firstName: 'Ana', lastName: 'Sanz', email: 'ana@paciente.test', birthdate: '1990-03-03' });
}, 60_000);
afterAll(() => t?.close());

const sendMinor = () =>
  kit.sent({
    patientId: child,
    templateId: minorTemplate,
    signers: {
      guardian: { name: 'Lucía Gómez', email: 'lucia@familia.test' },
      secondGuardian: { name: 'Jorge Gómez', email: 'jorge@familia.test' },
    },
  });

describe('signing a consent by its link', () => {
  it('a minor of 14: each guardian by their own link, in turn, then the sealed PDF in the file with its trail', async () => {
    const sent = await sendMinor();
    expect(sent.signers.map((s) => s.role)).toEqual(['guardian', 'secondGuardian']);
    expect(sent.signers.map((s) => !!s.mailedAt)).toEqual([true, false]);
    const first = await mailedToken(t, 'lucia@familia.test');
    expect(first).toBe(tokenOf(sent.links[0]!.url));
    await expect(t.lastMail('jorge@familia.test')).rejects.toThrow();

    const view = await kit.view(first);
    expect(view.statusCode, view.body).toBe(200);
    const page = json<PublicConsent>(view);
    expect(page.documentTitle).toBe('Consentimiento para el tratamiento de Pablo Gómez');
    expect(page.sections[0]!.body).toContain('Inés Prieto');
    expect(page.signer).toMatchObject({ role: 'guardian', data: ['fullName', 'idNumber'], signedAt: null });
    expect(page.others).toEqual([{ role: 'secondGuardian', name: 'Jorge Gómez', signed: false }]);
    await kit.view(first); // a second view records nothing more

    const signed = await kit.sign(first, guardianBody({ checkboxes: [1, 2] }));
    expect(signed.statusCode, signed.body).toBe(200);
    expect(json<{ completed: boolean }>(signed).completed).toBe(false);
    const second = await mailedToken(t, 'jorge@familia.test');
    expect(second).toBe(tokenOf(sent.links[1]!.url));
    const done = await kit.sign(
      second,
      guardianBody({
        data: { fullName: 'Jorge Gómez Martín', idNumber: 'X1234567L' },
        signature: { kind: 'typed', name: 'Jorge Gómez Martín' },
      }),
    );
    expect(done.statusCode, done.body).toBe(200);
    expect(json<{ completed: boolean; state: string }>(done)).toMatchObject({ completed: true, state: 'signed' });
    // What a signer gives is stored encrypted: neither the ID number nor the typed signature is in clear.
    const stored = await t.rows<{ row: string }>(
      sql`SELECT row_to_json(s)::text AS row FROM consent_signers s WHERE envelope_id = ${sent.id}`,
    );
    expect(stored).toHaveLength(2);
    for (const { row } of stored) expect(row).not.toMatch(/X1234567L|Gómez Martín|image\/png/);
    expect(stored.every(({ row }) => /"data_enc":"v2:/.test(row) && /"signature_enc":"v2:/.test(row))).toBe(true);

    const got = json<SentConsent>(await t.get(`/api/v1/workspaces/${ws.id}/consents/${sent.id}`, { token: owner.accessToken }));
    expect(got.state).toBe('signed');
    const docs = json<{ id: string; name: string; tags: string[] }[]>(
      await t.get(`/api/v1/workspaces/${ws.id}/patients/${child}/documents`, { token: owner.accessToken }),
    );
    const doc = docs.find((d) => d.id === got.documentId)!;
    expect(doc.tags).toContain('Consentimiento');
    const download = await t.get(`/api/v1/workspaces/${ws.id}/patients/${child}/documents/${doc.id}/download`, {
      token: owner.accessToken,
    });
    const pdf = download.rawPayload;
    expect(verifySealed(pdf).valid).toBe(true);
    const viaConsent = await t.get(`/api/v1/workspaces/${ws.id}/consents/${sent.id}/pdf`, { token: owner.accessToken });
    expect(viaConsent.headers['content-type']).toContain('application/pdf');
    expect(viaConsent.rawPayload.equals(pdf)).toBe(true);
    const audit = await t.rows<{ action: string; details: { patientName?: string; documentId?: string } }>(
      sql`SELECT action, details FROM audit_events WHERE workspace_id = ${ws.id} AND details->>'envelopeId' = ${sent.id} ORDER BY created_at`,
    );
    expect(audit.map((a) => a.action)).toEqual(['consent.sent', 'consent.completed']);
    expect(audit[1]!.details).toMatchObject({ documentId: doc.id });
    expect(audit[1]!.details.patientName).toBeTruthy();
    // A copy to each signer and the therapist.
    for (const to of ['lucia@familia.test', 'jorge@familia.test', 'ines@firmas.test'])
      expect((await t.lastMail(to)).subject).toMatch(/^Documento firmado/);

    const events = await t.rows<{
      type: string;
      signer_role: string | null;
      ip: string | null;
      user_agent: string | null;
      document_sha256: string;
    }>(
      sql`SELECT type, signer_role, ip, user_agent, document_sha256 FROM consent_envelope_events WHERE envelope_id = ${sent.id} ORDER BY id`,
    );
    expect(events.map((e) => `${e.type}:${e.signer_role ?? ''}`)).toEqual([
      'created:',
      'sent:guardian',
      'opened:guardian',
      'signed:guardian',
      'sent:secondGuardian',
      'signed:secondGuardian',
      'completed:',
    ]);
    expect(new Set(events.map((e) => e.document_sha256))).toEqual(new Set([page.documentSha256]));
    expect(events.find((e) => e.type === 'signed')).toMatchObject({ user_agent: 'Movil/1.0' });
    expect(events.find((e) => e.type === 'signed')!.ip).toBeTruthy();

    if (!skipPdfChecks) {
      const text = pdfText(pdf)
        .replace(/\u200b/g, '')
        .replace(/\s+/g, ' ');
      expect(text).toContain('Consentimiento para el tratamiento de Pablo Gómez');
      expect(text).toContain('Registro de evidencias');
      expect(text).toContain('Lucía Gómez Ruiz');
      expect(text).toContain('Jorge Gómez Martín');
      expect(text.replace(/ /g, '')).toContain(page.documentSha256);
      expect(text).toMatch(/Firmado · Segundo tutor\/a/);
      expect(text).toContain('Movil/1.0');
      expect(text).toContain('(Firma escrita con el teclado)');
      expect(text).toContain('Nº de colegiado');
    }

    const report = pdfsig(pdf);
    if (report !== null || process.env.CI === 'true') {
      expect(report).toContain('Signature Validation: Signature is Valid.');
      expect(report).toContain('Total document signed');
    }

    // Tampering with the stored file is detected.
    const tampered = Buffer.from(pdf);
    const at = tampered.indexOf('Pablo');
    tampered.write(at > 0 ? 'Pablx' : 'x', at > 0 ? at : 200, 'latin1');
    expect(verifySealed(tampered).valid).toBe(false);

    // Signing again, by either link, is refused.
    expectRefused(await kit.sign(first, guardianBody()), 409, 'consent_already_signed');
    expectRefused(await kit.sign(second, guardianBody()), 409, 'consent_already_signed');
    // Signed, it cannot be revoked.
    expectRefused(
      await t.post(`/api/v1/workspaces/${ws.id}/consents/${sent.id}/revoke`, {}, { token: owner.accessToken }),
      409,
      'consent_already_signed',
    );

    // The trail is append-only in the database.
    const refusal = (p: Promise<unknown>) =>
      p.then(
        () => 'accepted',
        (e: Error & { cause?: Error }) => `${e.message} ${e.cause?.message ?? ''}`,
      );
    expect(await refusal(t.rows(sql`UPDATE consent_envelope_events SET ip = '6.6.6.6' WHERE envelope_id = ${sent.id}`))).toMatch(
      /append-only \(UPDATE refused\)/,
    );
    expect(await refusal(t.rows(sql`DELETE FROM consent_envelope_events WHERE envelope_id = ${sent.id}`))).toMatch(
      /append-only \(DELETE refused\)/,
    );
    expect(await refusal(t.rows(sql`TRUNCATE consent_envelope_events`))).toMatch(/append-only/);
    // …but it goes with its envelope when the patient is erased (after the retention period).
    await t.rows(sql`DELETE FROM patients WHERE id = ${child}`);
    expect(await t.rows(sql`SELECT 1 FROM consent_envelope_events WHERE envelope_id = ${sent.id}`)).toEqual([]);
    child = await kit.patient({ firstName: 'Pablo', lastName: 'Gómez', birthdate: '2012-05-01' });
  }, 60_000);

  it('the envelope codes of §8, each refused before anything is recorded', async () => {
    const sent = await sendMinor();
    const token = tokenOf(sent.links[0]!.url);
    const second = tokenOf(sent.links[1]!.url);
    expectRefused(await kit.sign(token, guardianBody({ sectionCount: 2 })), 400, 'consent_invalid_sections');
    expectRefused(await kit.sign(token, guardianBody({ checkboxes: [2, 7] })), 400, 'consent_invalid_checkbox_section');
    expectRefused(await kit.sign(token, guardianBody({ checkboxes: [0, 2] })), 400, 'consent_checked_section_without_consent_box');
    expectRefused(await kit.sign(token, guardianBody({ checkboxes: [1] })), 400, 'consent_required_checkbox_unchecked');
    expectRefused(await kit.sign(token, guardianBody({ data: { fullName: 'Lucía' } })), 400, 'consent_guardian_data_required');
    expectRefused(
      await kit.sign(token, guardianBody({ data: { fullName: 'Lucía', idNumber: 'no-es-un-dni' } })),
      400,
      'consent_guardian_data_required',
    );
    expectRefused(
      await kit.sign(token, guardianBody({ signature: { kind: 'drawn', png: 'data:image/png;base64,AAAA' } })),
      400,
      'consent_invalid_signature',
    );
    expectRefused(await kit.sign(token, guardianBody({ signature: { kind: 'typed', name: ' ' } })), 400, 'consent_invalid_signature');
    const [signedEvents] = await t.rows<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM consent_envelope_events WHERE envelope_id = ${sent.id} AND type = 'signed'`,
    );
    expect(signedEvents!.n).toBe(0);
    expect((await kit.sign(token, guardianBody())).statusCode).toBe(200);
    expectRefused(await kit.sign(second, guardianBody({ data: { idNumber: '12345678Z' } })), 400, 'consent_second_guardian_data_required');

    const forAdult = await kit.sent({ patientId: adult, templateId: adultTemplate });
    expect(forAdult.signers).toMatchObject([{ role: 'patient', name: 'Ana Sanz', email: 'ana@paciente.test' }]);
    const patientToken = await mailedToken(t, 'ana@paciente.test');
    expectRefused(
      await kit.sign(patientToken, {
        data: { fullName: 'Ana Sanz', email: 'no-email' },
        checkboxes: [1],
        sectionCount: 2,
        signature: { kind: 'drawn', png: DRAWN },
      }),
      400,
      'consent_patient_data_required',
    );
    const ok = await kit.sign(patientToken, {
      data: { fullName: 'Ana Sanz', email: 'ana@paciente.test' },
      checkboxes: [1],
      sectionCount: 2,
      signature: { kind: 'typed', name: 'Ana Sanz' },
    });
    expect(json<{ completed: boolean }>(ok).completed).toBe(true);
    expectRefused(
      await kit.sign(patientToken, {
        data: { fullName: 'Ana Sanz', email: 'ana@paciente.test' },
        checkboxes: [1],
        sectionCount: 2,
        signature: { kind: 'typed', name: 'Ana Sanz' },
      }),
      409,
      'consent_already_signed',
    );
  }, 60_000);

  it('a signature whose PDF cannot be stored at once is still signed; the job seals it later, once', async () => {
    const documents = t.app.services.documents;
    const addGenerated = documents.addGenerated.bind(documents);
    documents.addGenerated = () => Promise.reject(new Error('disco lleno'));
    const sent = await kit.sent({ patientId: adult, templateId: adultTemplate });
    const body = {
      data: { fullName: 'Ana Sanz', email: 'ana@paciente.test' },
      checkboxes: [1],
      sectionCount: 2,
      signature: { kind: 'typed' as const, name: 'Ana Sanz' },
    };
    let done;
    try {
      done = await kit.sign(tokenOf(sent.links[0]!.url), body);
    } finally {
      documents.addGenerated = addGenerated;
    }
    expect(done.statusCode, done.body).toBe(200);
    expect(json<{ completed: boolean }>(done).completed).toBe(true);
    const C = `/api/v1/workspaces/${ws.id}/consents/${sent.id}`;
    expect(json<SentConsent>(await t.get(C, { token: owner.accessToken }))).toMatchObject({ state: 'signed', documentId: null });
    const pending = expectRefused(await t.get(`${C}/pdf`, { token: owner.accessToken }), 404, 'consent_not_found');
    expect(pending.message).toMatch(/sellando/);
    // The job waits a minute as a safety net; here it is due now.
    await t.rows(sql`UPDATE pgboss.job SET start_after = now() WHERE name = 'consents.seal' AND state = 'created'`);
    t.app.services.jobs.wake('consents.seal');
    const sealed = await until(
      () => t.get(C, { token: owner.accessToken }).then((r) => json<SentConsent>(r)),
      (e) => !!e.documentId,
    );
    expect(sealed.documentId).toBeTruthy();
    expect(verifySealed((await t.get(`${C}/pdf`, { token: owner.accessToken })).rawPayload).valid).toBe(true);
    const completed = await t.rows<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM consent_envelope_events WHERE envelope_id = ${sent.id} AND type = 'completed'`,
    );
    expect(completed[0]!.n).toBe(1);
  }, 60_000);

  it('both guardians signing at the same moment: the second never slips in before the first, and each envelope is completed once', async () => {
    const secondBody = guardianBody({ data: { fullName: 'Jorge Gómez', idNumber: 'X1234567L' } });
    const envelopes = [await sendMinor(), await sendMinor(), await sendMinor(), await sendMinor()];
    // Every second guardian's request goes out just before their first guardian's, all at once.
    const answers = await Promise.all(
      envelopes.flatMap((e) => [kit.sign(tokenOf(e.links[1]!.url), secondBody), kit.sign(tokenOf(e.links[0]!.url), guardianBody())]),
    );
    for (const [i, sent] of envelopes.entries()) {
      const [b, a] = [answers[2 * i]!, answers[2 * i + 1]!];
      expect(a.statusCode, a.body).toBe(200);
      // Under the envelope's lock the second reads the first's signature as committed or not yet: signed after it, or refused.
      if (b.statusCode !== 200) {
        expectRefused(b, 409, 'consent_not_your_turn');
        expect(json<{ completed: boolean }>(a).completed).toBe(false);
        expect(json<{ completed: boolean }>(await kit.sign(tokenOf(sent.links[1]!.url), secondBody)).completed).toBe(true);
      } else expect([json<{ completed: boolean }>(a).completed, json<{ completed: boolean }>(b).completed]).toEqual([false, true]);
      const signedOrder = await t.rows<{ signer_role: string }>(
        sql`SELECT signer_role FROM consent_envelope_events WHERE envelope_id = ${sent.id} AND type = 'signed' ORDER BY id`,
      );
      expect(signedOrder.map((r) => r.signer_role)).toEqual(['guardian', 'secondGuardian']);
      const completed = await t.rows<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM consent_envelope_events WHERE envelope_id = ${sent.id} AND type = 'completed'`,
      );
      expect(completed[0]!.n).toBe(1);
      const docs = await t.rows<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM patient_documents d JOIN consent_envelopes e ON e.document_id = d.id WHERE e.id = ${sent.id}`,
      );
      expect(docs[0]!.n).toBe(1);
    }
  }, 60_000);

  it('a revoked consent cannot be opened or signed; an unknown token opens nothing', async () => {
    const sent = await sendMinor();
    const token = tokenOf(sent.links[0]!.url);
    const res = await t.post(`/api/v1/workspaces/${ws.id}/consents/${sent.id}/revoke`, {}, { token: owner.accessToken });
    expect(res.statusCode, res.body).toBe(200);
    expect(json<SentConsent>(res).state).toBe('revoked');
    expectRefused(await kit.sign(token, guardianBody()), 404, 'consent_not_found');
    expectRefused(await kit.view(token), 404, 'consent_not_found');
    expectRefused(await kit.view('A'.repeat(43)), 404, 'consent_not_found');
    // Garbage in the link is one more unknown link (issue 24).
    expectRefused(await kit.view('corto'), 404, 'consent_not_found');
    const types = await t.rows<{ type: string }>(sql`SELECT type FROM consent_envelope_events WHERE envelope_id = ${sent.id} ORDER BY id`);
    expect(types.map((r) => r.type)).toEqual(['created', 'sent', 'revoked']);
  });
});

describe('issue 24: turns, names and what the file holds', () => {
  it("the second guardian's link before the first has signed: the page says whose turn it is and the signature is refused, nothing recorded", async () => {
    const sent = await sendMinor();
    const second = tokenOf(sent.links[1]!.url);
    const page = json<PublicConsent>(await kit.view(second));
    expect(page.waitingFor).toEqual([{ role: 'guardian', name: 'Lucía Gómez' }]);
    const refused = expectRefused(
      await kit.sign(second, guardianBody({ data: { fullName: 'Jorge Gómez', idNumber: 'X1234567L' } })),
      409,
      'consent_not_your_turn',
    );
    expect(refused.message).toBe('Antes tiene que firmar Lucía Gómez (tutor/a): te avisaremos por email cuando te toque.');
    const signed = await t.rows<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM consent_signers WHERE envelope_id = ${sent.id} AND signed_at IS NOT NULL`,
    );
    expect(signed[0]!.n).toBe(0);
    expect(json<SentConsent>(await t.get(`/api/v1/workspaces/${ws.id}/consents/${sent.id}`, { token: owner.accessToken })).state).not.toBe(
      'signed',
    );
    // Once the first has signed, the same link signs.
    expect((await kit.sign(tokenOf(sent.links[0]!.url), guardianBody())).statusCode).toBe(200);
    expect(json<PublicConsent>(await kit.view(second)).waitingFor).toEqual([]);
    const done = await kit.sign(second, guardianBody({ data: { fullName: 'Jorge Gómez', idNumber: 'X1234567L' } }));
    expect(json<{ completed: boolean }>(done).completed).toBe(true);
  }, 60_000);

  it("a signer's full name or typed signature with markup is refused with the letters-only message; so is a guardian's name at sending", async () => {
    const sent = await sendMinor();
    const token = tokenOf(sent.links[0]!.url);
    const markup = '<img src=x onerror=alert(1)>';
    const byName = expectRefused(
      await kit.sign(token, guardianBody({ data: { fullName: markup, idNumber: '12345678Z' } })),
      400,
      'consent_guardian_data_required',
    );
    expect(byName.message).toBe('Solo se permiten letras');
    const bySignature = expectRefused(
      await kit.sign(token, guardianBody({ signature: { kind: 'typed', name: markup } })),
      400,
      'consent_invalid_signature',
    );
    expect(bySignature.message).toBe('Solo se permiten letras');
    const atSending = expectRefused(
      await kit.send({
        patientId: child,
        templateId: minorTemplate,
        signers: {
          guardian: { name: markup, email: 'x@familia.test' },
          secondGuardian: { name: 'Jorge Gómez', email: 'jorge@familia.test' },
        },
      }),
      400,
      'invalid_argument',
    );
    expect(JSON.stringify(atSending)).toContain('Solo se permiten letras');
    // Accents, apostrophes, hyphens and Catalan's l·l are letters.
    const ok = await kit.sign(
      token,
      guardianBody({
        data: { fullName: "María-José O'Connor Gal·la", idNumber: '12345678Z' },
        signature: { kind: 'typed', name: 'María-José O’Connor' },
      }),
    );
    expect(ok.statusCode, ok.body).toBe(200);
  }, 60_000);

  it("the patient's page starts with what the file holds of the data asked (email, phone, ID number, address)", async () => {
    const full = await kit.template({
      ...ADULT_TEMPLATE,
      name: 'Con todos los datos',
      data: { patient: ['fullName', 'email', 'phone', 'address', 'idNumber'] },
    });
    const res = await t.post(
      `/api/v1/workspaces/${ws.id}/patients`,
      {
        firstName: 'Marta',
        lastName: 'Ruiz',
        email: 'marta@paciente.test',
        phone: '+34612345678',
        birthdate: '1985-02-02',
        billingInfo: { taxId: '12345678Z', line1: 'Calle Mayor 1', city: 'Madrid', zipCode: '28013' },
      },
      { token: owner.accessToken },
    );
    expect(res.statusCode, res.body).toBe(201);
    const sent = await kit.sent({ patientId: json<{ id: string }>(res).id, templateId: full });
    const page = json<PublicConsent>(await kit.view(tokenOf(sent.links[0]!.url)));
    expect(page.signer.prefill).toEqual({
      fullName: 'Marta Ruiz',
      email: 'marta@paciente.test',
      phone: expect.stringContaining('612') as unknown as string,
      address: 'Calle Mayor 1, 28013 Madrid',
      idNumber: '12345678Z',
    });
    // A guardian: the name and email the therapist gave, nothing of the child's file.
    const minor = json<PublicConsent>(await kit.view(tokenOf((await sendMinor()).links[0]!.url)));
    expect(minor.signer.prefill).toEqual({ fullName: 'Lucía Gómez' });
  }, 60_000);
});
