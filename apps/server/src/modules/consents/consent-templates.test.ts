import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import {
  READY_MADE_CONSENT_TEMPLATES,
  errorMessage,
  type ConsentTemplate,
  type ConsentTemplateList,
  type ConsentTemplateVersionSummary,
  type CreateConsentTemplateBody,
  type ReadyMadeConsentTemplateResponse,
  type Workspace,
} from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { png } from '../../test/images';
import { createWorkspace, therapist, withWorkspace, type Therapist } from '../../test/workspace-fixtures';

let t: TestApp;
let owner: Therapist;
let colleague: Therapist;
let editor: Therapist;
let outsider: Therapist;
let ws: Workspace;
let other: Workspace;
let T: string;
const SIGNATURE = `data:image/png;base64,${png(300, 100).toString('base64')}`;
const SIGNATURE_2 = `data:image/png;base64,${png(320, 110).toString('base64')}`;

const body = (over: Partial<CreateConsentTemplateBody> = {}): CreateConsentTemplateBody => ({
  name: 'Consentimiento de terapia de pareja',
  documentTitle: 'Consentimiento para terapia de pareja de {{paciente.nombre}}',
  data: { patient: ['fullName', 'email'] },
  sections: [
    { title: 'Qué es', body: '<p>La terapia de pareja con {{terapeuta.nombre}} en {{espacio.nombre}}.</p>' },
    { title: 'Grabación', body: '<p>Solo con tu permiso.</p>', checkbox: { label: 'Acepto que se grabe', required: false } },
    { title: 'Declaración', body: '<p>Fecha: {{fecha}}</p>', checkbox: { label: 'He leído y acepto', required: true } },
  ],
  signatures: { patient: true },
  ...over,
});

/** A refusal: its status, its code and its Spanish message (the catalogue's unless given). */
function expectRefused(res: LightMyRequestResponse, status: number, code: string, message: string | RegExp = errorMessage(code)) {
  expect(res.statusCode, res.body).toBe(status);
  const b = json<{ code: string; message: string; fields?: { path: string; message: string }[] }>(res);
  expect(b.code).toBe(code);
  expect(b.message).toMatch(typeof message === 'string' ? new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : message);
  return b;
}

beforeAll(async () => {
  t = await createTestApp();
  ({
    owner,
    ws,
    members: { colleague, editor },
  } = await withWorkspace(t, 'Clínica Consentimientos', {
    owner: { email: 'irene@consentimientos.test', firstName: 'Irene' },
    plan: { id: 'team', seats: 10 },
    members: {
      // The clinic's therapist reads templates and may not edit them (the default role).
      colleague: { email: 'marta@consentimientos.test', firstName: 'Marta', role: 'Terapeuta' },
      editor: {
        email: 'eva@consentimientos.test',
        firstName: 'Eva',
        role: {
          name: 'Plantillas',
          permissions: [
            { action: 'read', subject: 'consent_templates' },
            { action: 'update', subject: 'consent_templates' },
          ],
        },
      },
    },
  }));
  await t.app.services.users.updateProfile(owner.userId, { lastName: 'Martín', registrationNumber: 'M-12345' });
  outsider = await therapist(t, 'otro@consentimientos.test', 'Óscar');
  other = await createWorkspace(t, outsider, 'Gabinete Óscar', 'team');
  T = `/api/v1/workspaces/${ws.id}/consent-templates`;
}, 60_000);
afterAll(() => t?.close());

const create = async (over: Partial<CreateConsentTemplateBody> = {}, who = owner) => {
  const res = await t.post(T, body(over), { token: who.accessToken });
  expect(res.statusCode, res.body).toBe(201);
  return json<ConsentTemplate>(res);
};

describe('consent templates', () => {
  it('creates one: the HTML kept to the allowed tags, variables kept, version 1, an audit event', async () => {
    const res = await t.post(
      T,
      body({
        sections: [
          {
            title: 'Qué es',
            body: '<p onclick="x()">Hola {{paciente.nombre}}<script>alert(1)</script> <b>ya</b> <a href="javascript:alert(1)">enlace</a></p>',
          },
        ],
      }),
      { token: owner.accessToken },
    );
    expect(res.statusCode, res.body).toBe(201);
    const tpl = json<ConsentTemplate>(res);
    expect(tpl).toMatchObject({
      version: 1,
      latestVersion: 1,
      name: 'Consentimiento de terapia de pareja',
      data: { patient: ['fullName', 'email'], guardian: [], secondGuardian: [] },
      signatures: { patient: true, guardian: false, secondGuardian: false, therapist: false },
      therapistSignature: null,
      readyMadeKey: null,
      archivedAt: null,
      versionCreatedBy: { id: owner.userId, name: 'Irene Martín' },
    });
    expect(tpl.sections).toEqual([{ title: 'Qué es', body: '<p>Hola {{paciente.nombre}} <strong>ya</strong> enlace</p>', checkbox: null }]);
    const [event] = await t.rows<{ action: string; target: string; details: { templateId: string } }>(
      sql`select action, target, details from audit_events where workspace_id = ${ws.id} and action like 'consent_template.%'`,
    );
    expect(event).toEqual({
      action: 'consent_template.created',
      target: 'Consentimiento de terapia de pareja',
      details: { templateId: tpl.id, readyMadeKey: null },
    });
  });

  it('lists with search (accents and case ignored) and pagination, archived ones apart', async () => {
    await create({ name: 'Evaluación neuropsicológica', documentTitle: 'Consentimiento para la evaluación' });
    await create({ name: 'Terapia infantil', documentTitle: 'Atención a menores' });
    const list = async (q: string) => json<ConsentTemplateList>(await t.get(`${T}${q}`, { token: colleague.accessToken }));
    expect((await list('?q=NEUROPSICOLOGICA')).items.map((x) => x.name)).toEqual(['Evaluación neuropsicológica']);
    expect((await list('?q=menores')).items.map((x) => x.name)).toEqual(['Terapia infantil']);
    const page = await list('?pageSize=2&page=2&sort=name');
    expect(page.total).toBeGreaterThanOrEqual(3);
    expect(page.items).toHaveLength(Math.min(2, page.total - 2));
    expect(page).toMatchObject({ page: 2, pageSize: 2 });
    expect((await list('?q=infantil')).items[0]).toMatchObject({
      version: 1,
      signatures: { patient: true, therapist: false },
      archivedAt: null,
    });
    const bad = await t.get(`${T}?archived=quizá`, { token: owner.accessToken });
    expectRefused(bad, 400, 'invalid_argument', 'Opción inválida');
  });

  it('an edit is a new version; the earlier one stays readable; saving the same text makes none', async () => {
    const v1 = await create({ name: 'Versionada' });
    const edited = { ...body({ name: 'Versionada', documentTitle: 'Título nuevo' }), baseVersion: 1 };
    const res = await t.put(`${T}/${v1.id}`, edited, { token: editor.accessToken });
    expect(res.statusCode, res.body).toBe(200);
    expect(json<ConsentTemplate>(res)).toMatchObject({
      version: 2,
      latestVersion: 2,
      documentTitle: 'Título nuevo',
      versionCreatedBy: { id: editor.userId },
    });

    const old = json<ConsentTemplate>(await t.get(`${T}/${v1.id}?version=1`, { token: colleague.accessToken }));
    expect(old).toMatchObject({ version: 1, latestVersion: 2, documentTitle: v1.documentTitle, versionCreatedBy: { id: owner.userId } });
    expect(json<ConsentTemplate>(await t.get(`${T}/${v1.id}`, { token: colleague.accessToken })).version).toBe(2);

    const same = json<ConsentTemplate>(await t.put(`${T}/${v1.id}`, { ...edited, baseVersion: 2 }, { token: owner.accessToken }));
    expect(same.version).toBe(2);
    const versions = json<ConsentTemplateVersionSummary[]>(await t.get(`${T}/${v1.id}/versions`, { token: colleague.accessToken }));
    expect(versions.map((v) => [v.version, v.name, v.createdBy?.id])).toEqual([
      [2, 'Versionada', editor.userId],
      [1, 'Versionada', owner.userId],
    ]);
    const events = await t.rows<{ action: string; details: { version: number } }>(
      sql`select action, details from audit_events where details->>'templateId' = ${v1.id} order by created_at`,
    );
    expect(events.map((e) => [e.action, e.details.version ?? null])).toEqual([
      ['consent_template.created', null],
      ['consent_template.updated', 2],
    ]);
  });

  it('two saves from the same version at once: one is version 2, the other is refused (run on PostgreSQL too)', async () => {
    const tpl = await create({ name: 'A la vez' });
    const save = (title: string, who: Therapist) =>
      t.put(`${T}/${tpl.id}`, { ...body({ name: 'A la vez', documentTitle: title }), baseVersion: 1 }, { token: who.accessToken });
    const results = await Promise.all([save('Uno', owner), save('Dos', editor)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(json<{ code: string }>(results.find((r) => r.statusCode === 409)!).code).toBe('consent_invalid_version');
    const versions = json<ConsentTemplateVersionSummary[]>(await t.get(`${T}/${tpl.id}/versions`, { token: owner.accessToken }));
    expect(versions.map((v) => v.version)).toEqual([2, 1]);
  });

  it('a version is frozen in the database itself', async () => {
    const tpl = await create({ name: 'Congelada' });
    const failure = await t.rows(sql`update consent_template_versions set content = '{}'::jsonb where template_id = ${tpl.id}`).then(
      () => null,
      (err: { cause?: { message?: string } }) => err.cause?.message ?? '',
    );
    expect(failure).toMatch(/consent_template_versions are frozen/);
    expect(json<ConsentTemplate>(await t.get(`${T}/${tpl.id}`, { token: owner.accessToken })).name).toBe('Congelada');
  });

  it('keeps the therapist’s signature across edits unless replaced or removed, with who drew it', async () => {
    const tpl = await create({ name: 'Firmada', signatures: { patient: true, therapist: true }, therapistSignature: SIGNATURE });
    expect(tpl.therapistSignature).toMatchObject({ image: SIGNATURE, signedBy: { id: owner.userId, name: 'Irene Martín' } });
    const base = body({ name: 'Firmada', signatures: { patient: true, therapist: true } });
    const kept = json<ConsentTemplate>(
      await t.put(`${T}/${tpl.id}`, { ...base, documentTitle: 'Otro título', baseVersion: 1 }, { token: editor.accessToken }),
    );
    expect(kept.therapistSignature).toEqual(tpl.therapistSignature);
    const replaced = json<ConsentTemplate>(
      await t.put(`${T}/${tpl.id}`, { ...base, therapistSignature: SIGNATURE_2, baseVersion: 2 }, { token: editor.accessToken }),
    );
    expect(replaced.therapistSignature).toMatchObject({ image: SIGNATURE_2, signedBy: { id: editor.userId } });
    const off = json<ConsentTemplate>(
      await t.put(`${T}/${tpl.id}`, { ...base, signatures: { patient: true }, baseVersion: 3 }, { token: owner.accessToken }),
    );
    expect(off).toMatchObject({ version: 4, therapistSignature: null });
    expect(json<ConsentTemplate>(await t.get(`${T}/${tpl.id}?version=1`, { token: owner.accessToken })).therapistSignature?.image).toBe(
      SIGNATURE,
    );
  });

  it('archives on delete: gone from the list, its versions still readable, not editable', async () => {
    const tpl = await create({ name: 'Para archivar' });
    expect((await t.del(`${T}/${tpl.id}`, { token: owner.accessToken })).statusCode).toBe(204);
    const names = async (q = '') =>
      json<ConsentTemplateList>(await t.get(`${T}${q}`, { token: owner.accessToken })).items.map((x) => x.name);
    expect(await names()).not.toContain('Para archivar');
    expect(await names('?archived=true')).toEqual(['Para archivar']);
    expect(json<ConsentTemplate>(await t.get(`${T}/${tpl.id}?version=1`, { token: owner.accessToken })).archivedAt).not.toBeNull();
    const msg = 'Plantilla de consentimiento no encontrada.';
    expectRefused(
      await t.put(`${T}/${tpl.id}`, { ...body(), baseVersion: 1 }, { token: owner.accessToken }),
      404,
      'consent_not_found',
      msg,
    );
    expectRefused(await t.del(`${T}/${tpl.id}`, { token: owner.accessToken }), 404, 'consent_not_found', msg);
    const [event] = await t.rows<{ action: string }>(
      sql`select action from audit_events where details->>'templateId' = ${tpl.id} and action = 'consent_template.deleted'`,
    );
    expect(event).toBeDefined();
  });
});

describe('the codes of spec §5 and §8 (consents), each with its Spanish message', () => {
  it('consent_dataset_required: at least one data item asked (§5)', async () => {
    const b = expectRefused(
      await t.post(T, body({ data: {} }), { token: owner.accessToken }),
      400,
      'consent_dataset_required',
      'Debes pedir al menos un dato del paciente, tutor o segundo tutor',
    );
    expect(b.fields).toEqual([{ path: 'data', message: 'Debes pedir al menos un dato del paciente, tutor o segundo tutor' }]);
    // A guardian who signs must at least be asked their name: the same code, naming the field.
    const g = await t.post(T, body({ data: { patient: ['fullName'], guardian: ['email'] }, signatures: { guardian: true } }), {
      token: owner.accessToken,
    });
    expectRefused(g, 400, 'consent_dataset_required', 'Si firma el tutor, debes pedirle al menos su nombre completo.');
  });

  it('consent_guardian_required_for_second_guardian', async () => {
    const res = await t.post(T, body({ data: { patient: ['fullName'], secondGuardian: ['fullName'] } }), { token: owner.accessToken });
    expectRefused(
      res,
      400,
      'consent_guardian_required_for_second_guardian',
      'Para pedir datos del segundo tutor, pide también los del primer tutor.',
    );
    const signs = await t.post(
      T,
      body({ data: { guardian: ['fullName'], secondGuardian: ['fullName'] }, signatures: { secondGuardian: true } }),
      { token: owner.accessToken },
    );
    expectRefused(
      signs,
      400,
      'consent_guardian_required_for_second_guardian',
      'Si firma el segundo tutor, también debe firmar el primer tutor.',
    );
  });

  it('consent_therapist_signature_required, on create, on edit and on copying a ready-made template the therapist signs', async () => {
    const message = 'Esta plantilla la firma también el terapeuta: dibuja tu firma para guardarla.';
    expectRefused(
      await t.post(T, body({ signatures: { patient: true, therapist: true } }), { token: owner.accessToken }),
      400,
      'consent_therapist_signature_required',
      message,
    );
    const tpl = await create({ name: 'Sin firma del terapeuta' });
    const edit = await t.put(
      `${T}/${tpl.id}`,
      { ...body({ signatures: { patient: true, therapist: true } }), baseVersion: 1 },
      { token: owner.accessToken },
    );
    expectRefused(edit, 400, 'consent_therapist_signature_required', message);
    expectRefused(
      await t.post(`${T}/from-ready-made/tratamiento-psicologico`, {}, { token: owner.accessToken }),
      400,
      'consent_therapist_signature_required',
      message,
    );
  });

  it('consent_invalid_signature', async () => {
    for (const bad of [
      'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
      'data:image/png;base64,AAAA',
      `data:image/png;base64,${Buffer.from('no es un png'.repeat(5)).toString('base64')}`,
    ]) {
      const res = await t.post(T, body({ signatures: { patient: true, therapist: true }, therapistSignature: bad }), {
        token: owner.accessToken,
      });
      expectRefused(res, 400, 'consent_invalid_signature', 'La firma no es una imagen PNG válida. Vuelve a dibujarla.');
    }
  });

  it('consent_invalid_version: a version that does not exist, and an edit from a version no longer current', async () => {
    const tpl = await create({ name: 'Concurrencia' });
    expectRefused(
      await t.get(`${T}/${tpl.id}?version=7`, { token: owner.accessToken }),
      409,
      'consent_invalid_version',
      'La plantilla no tiene la versión 7: va por la versión 1.',
    );
    expect(
      (
        await t.put(
          `${T}/${tpl.id}`,
          { ...body({ name: 'Concurrencia', documentTitle: 'A' }), baseVersion: 1 },
          { token: owner.accessToken },
        )
      ).statusCode,
    ).toBe(200);
    const stale = await t.put(
      `${T}/${tpl.id}`,
      { ...body({ name: 'Concurrencia', documentTitle: 'B' }), baseVersion: 1 },
      { token: editor.accessToken },
    );
    const b = expectRefused(
      stale,
      409,
      'consent_invalid_version',
      /^Otra persona ha guardado esta plantilla mientras la editabas \(ahora va por la versión 2\)/,
    );
    expect(b.fields).toEqual([{ path: 'baseVersion', message: 'La plantilla va por la versión 2.' }]);
    expect(json<ConsentTemplate>(await t.get(`${T}/${tpl.id}`, { token: owner.accessToken })).documentTitle).toBe('A');
    expect(errorMessage('consent_invalid_version')).toMatch(/versión de la plantilla/);
  });

  it('consent_not_found: an id that does not exist, or another workspace’s template', async () => {
    const message = 'Plantilla de consentimiento no encontrada.';
    expectRefused(await t.get(`${T}/${crypto.randomUUID()}`, { token: owner.accessToken }), 404, 'consent_not_found', message);
    const theirs = json<ConsentTemplate>(
      await t.post(`/api/v1/workspaces/${other.id}/consent-templates`, body(), { token: outsider.accessToken }),
    );
    expectRefused(await t.get(`${T}/${theirs.id}`, { token: owner.accessToken }), 404, 'consent_not_found', message);
    expectRefused(
      await t.put(`${T}/${theirs.id}`, { ...body(), baseVersion: 1 }, { token: owner.accessToken }),
      404,
      'consent_not_found',
      message,
    );
    expectRefused(await t.del(`${T}/${theirs.id}`, { token: owner.accessToken }), 404, 'consent_not_found', message);
  });

  it('unknown variables, an empty section and nobody signing are Spanish 400s naming the field', async () => {
    const unknown = await t.post(T, body({ sections: [{ title: 'Hola', body: '<p>{{paciente.apellidos}}</p>' }] }), {
      token: owner.accessToken,
    });
    const b = expectRefused(
      unknown,
      400,
      'invalid_argument',
      /^Variable desconocida: \{\{paciente\.apellidos\}\}\. Puedes usar: \{\{paciente\.nombre\}\}/,
    );
    expect(b.fields?.[0]?.path).toBe('sections.0.body');
    expectRefused(
      await t.post(T, body({ sections: [{ body: '<p><script>x</script></p>' }] }), { token: owner.accessToken }),
      400,
      'invalid_argument',
      'La sección 1 está vacía: escribe su texto o quítala.',
    );
    expectRefused(
      await t.post(T, body({ signatures: {} }), { token: owner.accessToken }),
      400,
      'invalid_argument',
      'Indica quién firma el documento: el paciente, el tutor o ambos tutores.',
    );
    expectRefused(
      await t.post(T, body({ data: { patient: ['edad'] } as never }), { token: owner.accessToken }),
      400,
      'invalid_argument',
      'Opción inválida',
    );
  });
});

describe('ready-made templates', () => {
  it('are listed to any signed-in user, not to anonymous callers', async () => {
    const res = await t.get('/api/v1/consent-templates/ready-made', { token: outsider.accessToken });
    expect(res.statusCode).toBe(200);
    expect(json<ReadyMadeConsentTemplateResponse[]>(res).map((x) => x.key)).toEqual(READY_MADE_CONSENT_TEMPLATES.map((x) => x.key));
    expect((await t.get('/api/v1/consent-templates/ready-made')).statusCode).toBe(401);
  });

  it('copying each gives a valid template with its text, named apart from an earlier copy', async () => {
    for (const ready of READY_MADE_CONSENT_TEMPLATES) {
      const payload = ready.content.signatures.therapist ? { therapistSignature: SIGNATURE } : {};
      const res = await t.post(`${T}/from-ready-made/${ready.key}`, payload, { token: owner.accessToken });
      expect(res.statusCode, res.body).toBe(201);
      const copy = json<ConsentTemplate>(res);
      expect(copy).toMatchObject({
        version: 1,
        readyMadeKey: ready.key,
        name: ready.content.name,
        documentTitle: ready.content.documentTitle,
        data: ready.content.data,
        signatures: ready.content.signatures,
      });
      // The sanitiser adds only what every link gets (opens apart, no referrer).
      expect(
        copy.sections.map((s) => ({ ...s, body: s.body.replace(/ rel="noopener noreferrer nofollow" target="_blank"/g, '') })),
      ).toEqual(ready.content.sections);
      expect(copy.therapistSignature?.image ?? null).toBe(ready.content.signatures.therapist ? SIGNATURE : null);
      // What was copied is a template as any other: saved again unchanged, it is valid and makes no new version.
      const again = await t.put(
        `${T}/${copy.id}`,
        { ...copy, therapistSignature: undefined, baseVersion: 1 },
        { token: owner.accessToken },
      );
      expect(again.statusCode, again.body).toBe(200);
      expect(json<ConsentTemplate>(again).version).toBe(1);
    }
    const res = await t.post(`${T}/from-ready-made/sesiones-online`, undefined, { token: owner.accessToken });
    expect(res.statusCode, res.body).toBe(201);
    const second = json<ConsentTemplate>(res);
    expect(second.name).toBe('Sesiones online (videollamada) (2)');
    const named = json<ConsentTemplate>(
      await t.post(`${T}/from-ready-made/grabacion-sesiones`, { name: 'Grabaciones de la clínica' }, { token: owner.accessToken }),
    );
    expect(named.name).toBe('Grabaciones de la clínica');
    expectRefused(
      await t.post(`${T}/from-ready-made/no-existe`, {}, { token: owner.accessToken }),
      400,
      'invalid_argument',
      'Opción inválida',
    );
  });
});

describe('permissions', () => {
  it('a member who only reads templates reads them, and is refused 403 editing, creating, copying or deleting', async () => {
    const tpl = await create({ name: 'Solo lectura' });
    expect((await t.get(`${T}/${tpl.id}`, { token: colleague.accessToken })).statusCode).toBe(200);
    const token = colleague.accessToken;
    for (const res of [
      await t.put(`${T}/${tpl.id}`, { ...body(), baseVersion: 1 }, { token }),
      await t.post(T, body(), { token }),
      await t.post(`${T}/from-ready-made/sesiones-online`, {}, { token }),
      await t.del(`${T}/${tpl.id}`, { token }),
    ])
      expectRefused(res, 403, 'access_denied');
    // Update without create or delete: edits, and no more.
    expectRefused(await t.post(T, body(), { token: editor.accessToken }), 403, 'access_denied');
    expectRefused(await t.del(`${T}/${tpl.id}`, { token: editor.accessToken }), 403, 'access_denied');
  });

  it("another workspace's member gets 404, as for a workspace that does not exist", async () => {
    const tpl = await create({ name: 'Privada' });
    const token = outsider.accessToken;
    for (const res of [
      await t.get(T, { token }),
      await t.get(`${T}/${tpl.id}`, { token }),
      await t.put(`${T}/${tpl.id}`, { ...body(), baseVersion: 1 }, { token }),
      await t.del(`${T}/${tpl.id}`, { token }),
      await t.post(`${T}/from-ready-made/sesiones-online`, {}, { token }),
    ])
      expectRefused(res, 404, 'workspace_not_found');
  });
});
