import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { Patient, Workspace } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { withWorkspace, type Therapist } from '../../test/workspace-fixtures';
import { multipart } from '../../test/images';

/**
 * Input PostgreSQL refuses deep in a query (a NUL in text, a day not in the calendar, year 0, an integer past
 * int4) is a 400 `invalid_argument` with a Spanish message, never a 500 (issue 9). Each case keeps the rest
 * of the request valid, so the one bad field is what is refused.
 */
const NUL = '\u0000';
let t: TestApp;
let owner: Therapist;
let ws: Workspace;
let W: string;
let patientId: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ owner, ws, patientId } = await withWorkspace(t, 'Consulta Entrada', {
    owner: { email: 'irene@entrada.test', firstName: 'Irene' },
    patient: { firstName: 'Sara' },
  }));
  W = `/api/v1/workspaces/${ws.id}`;
});
afterAll(() => t?.close());

function expectSpanish400(res: LightMyRequestResponse, message: string | RegExp) {
  expect(res.statusCode, res.body).toBe(400);
  const body = json<{ code: string; message: string; fields?: { path: string; message: string }[] }>(res);
  expect(body.code).toBe('invalid_argument');
  expect(body.message).toMatch(message);
  return body;
}

describe('a NUL in text is a Spanish 400', () => {
  it("in a patient's first name", async () => {
    const res = await t.post(`${W}/patients`, { firstName: `Ana${NUL}`, lastName: 'Ruiz' }, { token: owner.accessToken });
    const body = expectSpanish400(res, 'Nombre contiene caracteres no permitidos');
    expect(body.fields).toEqual([{ path: 'firstName', message: 'Nombre contiene caracteres no permitidos' }]);
  });

  it('in a workspace name, on create and on rename', async () => {
    expectSpanish400(
      await t.post('/api/v1/workspaces', { name: `Clínica${NUL}`, template: 'clinic' }, { token: owner.accessToken }),
      'Nombre contiene caracteres no permitidos',
    );
    expectSpanish400(await t.patch(W, { name: `Clínica${NUL}` }, { token: owner.accessToken }), 'Nombre contiene caracteres no permitidos');
  });

  it('in billing fields, medication, insurance policy, a role name, the biography and the patient search', async () => {
    const token = owner.accessToken;
    const P = `${W}/patients/${patientId}`;
    expectSpanish400(
      await t.put(`${W}/billing-info`, { footer: `Gracias${NUL}` }, { token }),
      'Pie de factura contiene caracteres no permitidos',
    );
    expectSpanish400(await t.patch(P, { billingInfo: { city: `Madrid${NUL}` } }, { token }), 'Ciudad contiene caracteres no permitidos');
    expectSpanish400(
      await t.put(`${P}/treatment`, { medication: `Sertralina${NUL}` }, { token }),
      'Medicación contiene caracteres no permitidos',
    );
    expectSpanish400(await t.put(`${P}/treatment`, { insurancePolicy: NUL }, { token }), 'Póliza contiene caracteres no permitidos');
    expectSpanish400(
      await t.post(`${W}/roles`, { name: `Rol${NUL}`, permissions: [{ action: 'read', subject: 'patients' }] }, { token }),
      'Nombre contiene caracteres no permitidos',
    );
    expectSpanish400(
      await t.patch('/api/v1/me', { biography: `Psicóloga${NUL}` }, { token }),
      'Biografía contiene caracteres no permitidos',
    );
    expectSpanish400(await t.get(`${W}/patients?q=Sa%00ra`, { token }), 'Búsqueda contiene caracteres no permitidos');
  });
});

describe('a day that only matches the pattern is a Spanish 400', () => {
  it.each(['2024-02-30', '2023-02-29', '2024-13-01', '0000-01-01'])(
    '%s as a birthdate, a treatment date and a history date',
    async (day) => {
      const token = owner.accessToken;
      const P = `${W}/patients/${patientId}`;
      const created = expectSpanish400(await t.post(`${W}/patients`, { firstName: 'Ana', birthdate: day }, { token }), 'Fecha inválida');
      expect(created.fields?.[0]?.path).toBe('birthdate');
      expectSpanish400(await t.patch('/api/v1/me', { birthdate: day }, { token }), 'Fecha inválida');
      expectSpanish400(await t.put(`${P}/treatment`, { startDate: day }, { token }), 'Fecha inválida');
      expectSpanish400(await t.put(`${P}/treatment`, { endDate: day }, { token }), 'Fecha inválida');
      expectSpanish400(await t.post(`${P}/history`, { title: 'Sesión', date: day }, { token }), 'Fecha inválida');
    },
  );

  it('in the date of a Word import', async () => {
    const { payload: file, headers } = multipart('file', 'nota.docx', 'application/octet-stream', Buffer.from('PK\u0003\u0004'));
    const boundary = headers['content-type'].split('boundary=')[1]!;
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="date"\r\n\r\n2024-02-30\r\n`),
      file,
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: `${W}/patients/${patientId}/history/import-docx`,
      payload,
      headers: { ...headers, authorization: `Bearer ${owner.accessToken}` },
    });
    expectSpanish400(res, 'Fecha inválida');
  });

  it('while a real leap day is kept', async () => {
    const res = await t.post(`${W}/patients`, { firstName: 'Bisiesto', birthdate: '2000-02-29' }, { token: owner.accessToken });
    expect(res.statusCode, res.body).toBe(201);
    expect(json<Patient>(res).birthdate).toBe('2000-02-29');
  });
});

describe('an impossible instant in a before cursor is a Spanish 400', () => {
  it.each(['0000-01-01T00:00:00Z', '2024-02-30T10:00:00Z'])('%s on the audit log and the access log', async (before) => {
    const q = `before=${encodeURIComponent(before)}`;
    expectSpanish400(await t.get(`${W}/audit-events?${q}`, { token: owner.accessToken }), 'Fecha y hora inválidas');
    expectSpanish400(await t.get(`${W}/clinical-access-log?${q}`, { token: owner.accessToken }), 'Fecha y hora inválidas');
  });

  it('a valid cursor still pages', async () => {
    const res = await t.get(`${W}/audit-events?before=${encodeURIComponent('9999-12-31T23:59:59Z')}`, { token: owner.accessToken });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('numbers are bounded by their columns', () => {
  it('a commission of 2147483648 on an invitation', async () => {
    const roleId = ws.roles.find((r) => !r.isAdmin)!.id;
    const invite = (value: number) =>
      t.post(
        `${W}/invitations`,
        { email: 'nuevo@entrada.test', roleIds: [roleId], commission: { type: 'fixed', value } },
        { token: owner.accessToken },
      );
    const body = expectSpanish400(await invite(2_147_483_648), 'No puede ser mayor de 2147483647');
    expect(body.fields?.[0]?.path).toBe('commission.value');
    expect((await invite(2_147_483_647)).statusCode).toBe(201);
  });
});

describe("Zod's own messages are Spanish too", () => {
  it('for a body of the wrong shape, a string too long, a bad UUID in the path and an unknown enum value', async () => {
    expectSpanish400(await t.post(`${W}/patients`, [], { token: owner.accessToken }), 'Datos inválidos');
    expectSpanish400(
      await t.post(`${W}/patients`, { firstName: 'x'.repeat(5000) }, { token: owner.accessToken }),
      /^No puede tener más de \d+ caracteres$/,
    );
    expectSpanish400(await t.get(`${W}/patients/no-es-un-uuid`, { token: owner.accessToken }), /inválido$/);
    expectSpanish400(await t.get(`${W}/patients?status=quizas`, { token: owner.accessToken }), /inválid/);
  });
});

describe('a broken multipart upload is a Spanish 400 on every upload route', () => {
  it('without a boundary, or cut before its closing boundary', async () => {
    const routes: [string, string][] = [
      ['PUT', '/api/v1/me/picture'],
      ['PUT', '/api/v1/me/logo'],
      ['PUT', `${W}/logo`],
      ['POST', `${W}/patients/${patientId}/documents`],
      ['POST', `${W}/patients/${patientId}/history/import-docx`],
      ['POST', `${W}/patient-imports`],
    ];
    const cut = '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n';
    for (const [method, url] of routes)
      for (const [contentType, payload] of [
        ['multipart/form-data', 'abc'],
        ['multipart/form-data; boundary=XYZ', cut],
      ] as const) {
        const res = await t.app.inject({
          method: method as 'PUT',
          url,
          payload,
          headers: { authorization: `Bearer ${owner.accessToken}`, 'content-type': contentType },
        });
        expect({ url, contentType, status: res.statusCode }).toEqual({ url, contentType, status: 400 });
        expect(json<{ message: string }>(res).message).toMatch(/no ha llegado completo|mal formado/);
      }
  });
});

describe('a null where a field is optional is the field left out (issue 24)', () => {
  it('an invoice whose buyer has taxId: null, the rest valid, is drafted without one', async () => {
    const res = await t.post(
      `${W}/invoices`,
      {
        buyer: { kind: 'company', fullName: 'Seguros Ejemplo SA', taxId: null },
        lines: [{ description: 'Informe', itemKind: 'report', unitPriceCents: 10000 }],
      },
      { token: owner.accessToken },
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(json<{ buyer: { taxId: string | null } }>(res).buyer.taxId).toBeNull();
  });

  it('null keeps a field that cannot be emptied as it was, clears one that can, and is still refused where the field is required', async () => {
    const res = await t.patch('/api/v1/me', { firstName: null, biography: null }, { token: owner.accessToken });
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toMatchObject({ firstName: 'Irene', biography: null });
    expectSpanish400(await t.post(`${W}/patients`, { firstName: null }, { token: owner.accessToken }), 'nombre');
  });
});
