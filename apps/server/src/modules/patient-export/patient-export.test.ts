import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Patient, PatientExport, Workspace } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { withWorkspace, type Therapist } from '../../test/workspace-fixtures';
import { multipart } from '../../test/images';
import { pdfInfo, pdfText, skipPdfChecks } from '../../test/pdf-tools';

let t: TestApp;
let owner: Therapist;
let ana: Therapist;
let rosa: Therapist;
let ws: Workspace;
let patientId: string;
let P: string;
const codeOf = (res: { json(): unknown }) => (res.json() as { code: string }).code;

beforeAll(async () => {
  t = await createTestApp();
  ({
    owner,
    ws,
    patientId,
    members: { ana, rosa },
  } = await withWorkspace(t, 'Clínica Mar', {
    owner: { email: 'carmen@clinica.test', firstName: 'Carmen' },
    plan: { id: 'team', seats: 10 },
    members: {
      ana: { email: 'ana@clinica.test', firstName: 'Ana', role: 'Terapeuta' },
      rosa: { email: 'rosa@clinica.test', firstName: 'Rosa', role: 'Recepción' },
    },
    patient: {
      firstName: 'Begoña',
      lastName: 'Ibáñez Ruiz',
      email: 'begona@correo.es',
      birthdate: '1988-03-14',
      gender: 'female',
      billingInfo: { taxId: '12345678Z', line1: 'Calle Real 5', city: 'Cádiz', zipCode: '11001' },
      treatment: { motive: 'anxiety', sessionType: 'individual', sessionPrice: 123456, startDate: '2026-09-01' },
    },
  }));
  P = `/api/v1/workspaces/${ws.id}/patients/${patientId}`;
  const entry = (title: string, date: string, body: string, priv = false) =>
    t.post(`${P}/history`, { title, date, body, private: priv }, { token: owner.accessToken });
  await entry(
    'Primera sesión',
    '2026-09-01',
    '<p>Acude por <strong>ansiedad</strong> anticipatoria.</p><ul><li>Insomnio de conciliación</li><li>Rumiación</li></ul>',
  );
  await entry('Nota personal', '2026-09-08', '<p>Contratransferencia intensa</p>', true);
  const { payload, headers } = multipart('file', 'consentimiento.pdf', 'application/pdf', Buffer.from('%PDF-1.4\n%%EOF\n'));
  await t.app.inject({
    method: 'POST',
    url: `${P}/documents`,
    payload,
    headers: { ...headers, authorization: `Bearer ${owner.accessToken}` },
  });
});
afterAll(() => t?.close());

describe('patient file export', () => {
  it('exports the file as JSON without private history entries, even the author’s', async () => {
    const res = await t.get(`${P}/export.json`, { token: owner.accessToken });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="Expediente Begona Ibanez Ruiz \d{4}-\d{2}-\d{2}\.json"/);
    const data = json<PatientExport>(res);
    expect(Date.parse(data.generatedAt)).not.toBeNaN();
    expect(data.patient).toMatchObject({ firstName: 'Begoña', lastName: 'Ibáñez Ruiz', birthdate: '1988-03-14' });
    expect(data.billingInfo).toMatchObject({ city: 'Cádiz' });
    expect(data.treatment).toMatchObject({ motive: 'anxiety', sessionPrice: 123456 });
    expect(data.history!.map((e) => e.title)).toEqual(['Primera sesión']);
    expect(data.history![0]!.text).toBe('Acude por ansiedad anticipatoria.\n\n• Insomnio de conciliación\n\n• Rumiación');
    expect(JSON.stringify(data)).not.toContain('Contratransferencia');
    expect(data.documents).toEqual([expect.objectContaining({ name: 'consentimiento.pdf', contentType: 'application/pdf' })]);
  });

  it('exports a readable PDF with the name, the sections and the dates in Spanish', async () => {
    const res = await t.get(`${P}/export.pdf`, { token: owner.accessToken });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    if (skipPdfChecks) return;
    const text = pdfText(res.rawPayload);
    expect(text).toContain('Begoña Ibáñez Ruiz');
    expect(text).toContain('Clínica Mar');
    expect(text).toMatch(/Página 1 de \d/);
    for (const s of [
      'Datos personales',
      'Tratamiento',
      'Historia clínica',
      '01/09/2026 · Primera sesión',
      'Acude por ansiedad anticipatoria.',
      'Insomnio de conciliación',
      '14/03/1988',
      'Ansiedad',
      'consentimiento.pdf',
    ])
      expect(text).toContain(s);
    expect(text).not.toContain('Contratransferencia');
    // Money with the thousands dot from four digits (Intl's es-ES default writes "1234,56 €").
    expect(text).toMatch(/Precio por sesión\s+1\.234,56\s€/);
  });

  it.skipIf(skipPdfChecks)('prints any name exactly, whatever its alphabet (names are letters only, spec §5)', async () => {
    const name = { firstName: 'Begoña', lastName: 'Çelik-Ünal D’Øster' };
    const other = json<Patient>(await t.post(`/api/v1/workspaces/${ws.id}/patients`, name, { token: owner.accessToken }));
    const res = await t.get(`/api/v1/workspaces/${ws.id}/patients/${other.id}/export.pdf`, { token: owner.accessToken });
    expect(res.statusCode).toBe(200);
    expect(pdfText(res.rawPayload)).toContain('Begoña Çelik-Ünal D’Øster');
    expect(pdfInfo(res.rawPayload).fields).toMatchObject({
      Title: 'Expediente de Begoña Çelik-Ünal D’Øster',
      Author: 'Clínica Mar',
      Tagged: 'yes',
    });
  });

  it('leaves out what the caller may not read, and hides other therapists’ patients', async () => {
    const reception = json<PatientExport>(await t.get(`${P}/export.json`, { token: rosa.accessToken }));
    expect(reception).toMatchObject({ treatment: null, history: null, documents: null, billingInfo: { city: 'Cádiz' } });
    expect(codeOf(await t.get(`${P}/export.json`, { token: ana.accessToken }))).toBe('patient_not_found');
    expect(codeOf(await t.get(`${P}/export.pdf`, { token: ana.accessToken }))).toBe('patient_not_found');
  });

  it('writes every export to the clinical access log', async () => {
    const log = json<{ action: string; user: { name: string } }[]>(
      await t.get(`/api/v1/workspaces/${ws.id}/clinical-access-log?patientId=${patientId}&limit=200`, { token: owner.accessToken }),
    );
    expect(
      log
        .filter((l) => l.action === 'file.export')
        .map((l) => l.user.name)
        .sort(),
    ).toEqual(['Carmen', 'Carmen', 'Rosa']);
  });
});
