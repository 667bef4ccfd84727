import { shiftDay, todayIn } from '@divan/core';
import { json, type TestApp } from './test-app';
import { multipart } from './images';
import { xlsx, XLSX_TYPE } from './spreadsheets';
import { addMember, insertRole, therapist } from './workspace-fixtures';

/**
 * Real records of a workspace, made through the API as a user would, for tests that must touch
 * existing ids (the authorization matrix, the cross-workspace checks). Each returns the new id.
 */
const W = (workspaceId: string) => `/api/v1/workspaces/${workspaceId}`;
let seq = 0;
const unique = () => `${Date.now().toString(36)}${(seq++).toString(36)}`;
/** `unique()` for a person's name, which is letters only (spec §5): its digits as capitals. */
const uniqueName = () => unique().replace(/\d/g, (d) => 'ABCDEFGHIJ'[Number(d)]!);

/** The caller's own billing data as an issuer, complete: what issuing (and a batch's preview) asks first. */
async function fillBillingData(t: TestApp, token: string) {
  await ok(
    await t.put(
      '/api/v1/me/billing',
      { fullName: 'Olga Propietaria', taxId: '12345678Z', line1: 'Calle Mayor 1', city: 'Madrid', zipCode: '28013', country: 'España' },
      { token },
    ),
    'billing data',
    200,
  );
}

async function ok<T = { id: string }>(res: { statusCode: number; body: string; json(): unknown }, what: string, status = 201): Promise<T> {
  if (res.statusCode !== status) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return json<T>(res as Parameters<typeof json>[0]);
}

/** The consent template `records.consentTemplate` makes: saved again as it is, it stays version 1. */
export const CONSENT_TEMPLATE_SAMPLE = {
  name: 'Consentimiento de registro',
  documentTitle: 'Consentimiento informado de {{paciente.nombre}}',
  data: { patient: ['fullName', 'email'] },
  sections: [
    {
      title: 'Tratamiento',
      body: '<p>Atención psicológica en {{espacio.nombre}}.</p>',
      checkbox: { label: 'He leído y acepto', required: true },
    },
  ],
  signatures: { patient: true },
};

export const records = {
  async patient(t: TestApp, token: string, workspaceId: string) {
    return (await ok(await t.post(`${W(workspaceId)}/patients`, { firstName: 'Registro', lastName: uniqueName() }, { token }), 'patient'))
      .id;
  },

  async historyEntry(t: TestApp, token: string, workspaceId: string, patientId: string) {
    const body = { title: 'Primera sesión', date: '2026-01-15', body: '<p>Motivo de consulta</p>', private: false };
    return (await ok(await t.post(`${W(workspaceId)}/patients/${patientId}/history`, body, { token }), 'history entry')).id;
  },

  /** An entry edited once, so it has a revision. */
  async revisedEntry(t: TestApp, token: string, workspaceId: string, patientId: string) {
    const id = await records.historyEntry(t, token, workspaceId, patientId);
    const body = { title: 'Primera sesión', date: '2026-01-15', body: '<p>Motivo de consulta, corregido</p>', private: false };
    await ok(await t.put(`${W(workspaceId)}/patients/${patientId}/history/${id}`, body, { token }), 'history revision', 200);
    return id;
  },

  async document(t: TestApp, token: string, workspaceId: string, patientId: string) {
    const { payload, headers } = multipart('file', `informe-${unique()}.txt`, 'text/plain', Buffer.from('Informe de evolución.\n'));
    const res = await t.app.inject({
      method: 'POST',
      url: `${W(workspaceId)}/patients/${patientId}/documents`,
      payload,
      headers: { ...headers, authorization: `Bearer ${token}` },
    });
    return (await ok(res, 'document')).id;
  },

  /** An uploaded, not yet committed import. It belongs to its uploader; a second upload by them replaces it. */
  async patientImport(t: TestApp, token: string, workspaceId: string) {
    const { payload, headers } = multipart(
      'file',
      'pacientes.xlsx',
      XLSX_TYPE,
      await xlsx([
        ['Nombre', 'Apellidos'],
        ['Importada', unique()],
      ]),
    );
    const res = await t.app.inject({
      method: 'POST',
      url: `${W(workspaceId)}/patient-imports`,
      payload,
      headers: { ...headers, authorization: `Bearer ${token}` },
    });
    return (await ok<{ importId: string }>(res, 'patient import')).importId;
  },

  /** A task of the caller's own list (tasks are personal: only their owner reaches them). */
  async task(t: TestApp, token: string, workspaceId: string) {
    return (await ok(await t.post(`${W(workspaceId)}/tasks`, { title: `Tarea ${unique()}`, dueDate: '2026-11-24' }, { token }), 'task')).id;
  },

  /** A session of the caller (a member) with a new active patient, a week ahead. */
  async session(t: TestApp, token: string, workspaceId: string) {
    const patientId = await records.patient(t, token, workspaceId);
    const day = shiftDay(todayIn('Europe/Madrid'), 7);
    const res = await t.post(`${W(workspaceId)}/sessions`, { patientId, day, from: '10:00', to: '10:50' }, { token });
    return (await ok<{ session: { id: string } }>(res, 'session')).session.id;
  },

  /** A draft invoice of the caller (a member) for a new patient. */
  async invoice(t: TestApp, token: string, workspaceId: string) {
    const patientId = await records.patient(t, token, workspaceId);
    const res = await t.post(
      `${W(workspaceId)}/invoices`,
      { patientId, lines: [{ description: 'Sesión de psicoterapia', unitPriceCents: 6000 }] },
      { token },
    );
    return (await ok(res, 'invoice')).id;
  },

  /** A session pack sold to the patient by the caller (their billing data filled in, so its invoice can be issued). */
  async pack(t: TestApp, token: string, workspaceId: string, patientId: string) {
    await fillBillingData(t, token);
    return (
      await ok(
        await t.post(`${W(workspaceId)}/patients/${patientId}/packs`, { sessionsTotal: 5, priceCents: 25000 }, { token }),
        'session pack',
      )
    ).id;
  },

  /** A batch of the caller's (Advance or Team plan, their billing data filled in): a completed session of theirs, invoiced by the batch's job. */
  async invoiceBatch(t: TestApp, token: string, workspaceId: string) {
    await fillBillingData(t, token);
    const sessionId = await records.session(t, token, workspaceId);
    await ok(await t.post(`${W(workspaceId)}/sessions/${sessionId}/complete`, undefined, { token }), 'completed session', 200);
    const today = todayIn('Europe/Madrid');
    return (
      await ok(await t.post(`${W(workspaceId)}/invoice-batches`, { from: today, to: shiftDay(today, 30) }, { token }), 'invoice batch', 202)
    ).id;
  },

  /** A consent template of the workspace (version 1). */
  async consentTemplate(t: TestApp, token: string, workspaceId: string) {
    return (await ok(await t.post(`${W(workspaceId)}/consent-templates`, CONSENT_TEMPLATE_SAMPLE, { token }), 'consent template')).id;
  },

  /** A consent sent to an adult patient and signed by them: its PDF is there to download. */
  async consent(t: TestApp, token: string, workspaceId: string) {
    const patientId = (
      await ok(
        await t.post(
          `${W(workspaceId)}/patients`,
          { firstName: 'Firma', lastName: uniqueName(), email: `firma-${unique()}@registro.test`, birthdate: '1980-01-01' },
          { token },
        ),
        'patient',
      )
    ).id;
    const templateId = await records.consentTemplate(t, token, workspaceId);
    const sent = await ok<{ id: string; links: { url: string }[] }>(
      await t.post(`${W(workspaceId)}/consents`, { patientId, templateId }, { token }),
      'consent',
    );
    const link = sent.links[0]!.url;
    const body = {
      data: { fullName: 'Firma Registro', email: 'firma@registro.test' },
      checkboxes: [0],
      sectionCount: 1,
      signature: { kind: 'typed', name: 'Firma Registro' },
    };
    await ok(await t.post(`/api/v1/public/consents/${link.slice(link.lastIndexOf('/') + 1)}/sign`, body), 'consent signature', 200);
    return sent.id;
  },

  /** A booking service of the caller's, under a title of its own. */
  async bookingService(t: TestApp, token: string, workspaceId: string) {
    const body = {
      title: `Servicio ${unique()}`,
      schedule: { 1: [{ from: '09:00', to: '14:00' }] },
      priceCents: 6000,
      modality: 'online',
      durationMinutes: 50,
    };
    return (await ok(await t.post(`${W(workspaceId)}/booking-services`, body, { token }), 'booking service')).id;
  },

  /** A blocked whole day of the caller's, a day of its own some weeks ahead. */
  async availabilityOverride(t: TestApp, token: string, workspaceId: string) {
    const day = shiftDay(todayIn('Europe/Madrid'), 30 + seq++);
    return (
      await ok<{ items: { id: string }[] }>(
        await t.post(`${W(workspaceId)}/availability-overrides`, { dates: [{ day }] }, { token }),
        'availability override',
      )
    ).items[0]!.id;
  },

  async location(t: TestApp, token: string, workspaceId: string) {
    return (await ok(await t.post(`${W(workspaceId)}/locations`, { name: `Sala ${unique()}` }, { token }), 'location')).id;
  },

  /** A role nobody holds, inserted past the per-workspace limit. */
  async role(t: TestApp, workspaceId: string) {
    return (await insertRole(t, workspaceId, `Rol ${unique()}`, [{ action: 'read', subject: 'sessions' }])).id;
  },

  async invitation(t: TestApp, token: string, workspaceId: string, roleId: string) {
    return (
      await ok(
        await t.post(`${W(workspaceId)}/invitations`, { email: `invitada-${unique()}@registros.test`, roleIds: [roleId] }, { token }),
        'invitation',
      )
    ).id;
  },

  /** A new therapist who joined with this role; the member id. */
  async member(t: TestApp, ownerToken: string, workspaceId: string, roleId: string) {
    const who = await therapist(t, `miembro-${unique()}@registros.test`, 'Miembro');
    return (await addMember(t, { userId: '', accessToken: ownerToken, email: '' }, workspaceId, who, [roleId])).memberId;
  },
};
