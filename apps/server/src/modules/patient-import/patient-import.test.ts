import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIME_ZONE, todayIn } from '@divan/core';
import type { Patient, Workspace } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { therapist, withWorkspace, type Therapist } from '../../test/workspace-fixtures';
import { multipart } from '../../test/images';
import { dni, importPatients, xlsx, XLSX_TYPE } from '../../test/spreadsheets';
import { readFixture } from '../../../../../fixtures';

let t: TestApp;
let owner: Therapist;
let colleague: Therapist;
let ws: Workspace;
let I: string;
const codeOf = (res: { json(): unknown }) => (res.json() as { code: string }).code;
const upload = (data: Buffer, token = owner.accessToken, path = I) => {
  const { payload, headers } = multipart('file', 'pacientes.xlsx', XLSX_TYPE, data);
  return t.app.inject({ method: 'POST', url: path, payload, headers: { ...headers, authorization: `Bearer ${token}` } });
};
const patientsNamed = async (q: string, workspaceId = ws.id) =>
  json<{ items: { id: string }[] }>(
    await t.get(`/api/v1/workspaces/${workspaceId}/patients?q=${encodeURIComponent(q)}`, { token: owner.accessToken }),
  ).items;

beforeAll(async () => {
  t = await createTestApp();
  ({
    owner,
    ws,
    members: { colleague },
  } = await withWorkspace(t, 'Clínica Import', {
    owner: { email: 'pilar@clinica.test', firstName: 'Pilar' },
    template: 'team',
    plan: { id: 'team', seats: 5 },
    members: { colleague: { email: 'jon@clinica.test', firstName: 'Jon', role: 'Terapeuta' } },
  }));
  I = `/api/v1/workspaces/${ws.id}/patient-imports`;
});
afterAll(() => t?.close());

describe('import patients from Excel', () => {
  it('reads the fixture: columns, a sample as text, and a mapping suggested from Spanish headers', async () => {
    const res = await upload(readFixture('pacientes-50.xlsx'));
    expect(res.statusCode, res.body).toBe(201);
    const up = json<{ columns: string[]; sampleRows: string[][]; totalRows: number; suggestedMapping: Record<string, number> }>(res);
    expect(up.columns).toEqual([
      'Nombre',
      'Apellidos',
      'Email',
      'Teléfono',
      'Fecha de nacimiento',
      'Género',
      'DNI/NIE',
      'Dirección',
      'Ciudad',
      'Código postal',
      'Motivo de consulta',
    ]);
    expect(up.totalRows).toBe(50);
    expect(up.sampleRows).toHaveLength(5);
    expect(up.sampleRows[0]).toEqual([
      'Paula',
      'Martín Gil',
      'paula.martin0@correo.es',
      '659081935',
      '21/01/1954',
      'Otro',
      '17784483D',
      'Calle Núñez 28',
      'Barcelona',
      '8012',
      'Ansiedad',
    ]);
    expect(up.suggestedMapping).toEqual({
      firstName: 0,
      lastName: 1,
      email: 2,
      phone: 3,
      birthdate: 4,
      gender: 5,
      taxId: 6,
      line1: 7,
      city: 8,
      zipCode: 9,
      motive: 10,
    });
  });

  it('imports the 48 valid rows of the fixture and reports rows 19 and 35', async () => {
    const { result, statusesSeen } = await importPatients(t, ws.id, owner.accessToken, readFixture('pacientes-50.xlsx'));
    expect(result).toEqual({
      status: 'done',
      processed: 50,
      total: 50,
      created: 48,
      errors: [
        { row: 19, reason: 'Email inválido' },
        { row: 35, reason: 'El campo nombre es obligatorio' },
      ],
    });
    expect([...statusesSeen].every((s) => ['validating', 'importing', 'done'].includes(s))).toBe(true);
    const [paula] = await patientsNamed('paula.martin0@correo.es');
    const p = json<Patient>(await t.get(`/api/v1/workspaces/${ws.id}/patients/${paula!.id}`, { token: owner.accessToken }));
    expect(p).toMatchObject({
      firstName: 'Paula',
      lastName: 'Martín Gil',
      phone: '+34659081935',
      birthdate: '1954-01-21',
      gender: 'other',
      taxId: '17784483D',
      status: 'active',
    });
    expect(p.billingInfo).toMatchObject({ line1: 'Calle Núñez 28', city: 'Barcelona', zipCode: '08012' });
    expect(p.treatment).toMatchObject({ motive: 'anxiety', status: 'active', startDate: todayIn(DEFAULT_TIME_ZONE) });
    expect(p.assignedTherapist).toBeNull();
  });

  it('importing the same file again creates no duplicates', async () => {
    const { result } = await importPatients(t, ws.id, owner.accessToken, readFixture('pacientes-50.xlsx'));
    expect(result.created).toBe(0);
    expect(result.errors).toHaveLength(50);
    expect(result.errors[0]).toEqual({ row: 2, reason: 'Ya existe un paciente con este email o DNI/NIE' });
  });

  it('two imports of the same people at once create each person once', async () => {
    const file = await xlsx([
      ['Nombre', 'Email'],
      ...Array.from({ length: 20 }, (_, i) => [`Doble ${String.fromCharCode(97 + i)}`, `doble${i}@correo.es`]),
    ]);
    const [a, b] = await Promise.all([
      importPatients(t, ws.id, owner.accessToken, file),
      importPatients(t, ws.id, colleague.accessToken, file),
    ]);
    expect(a.result.created + b.result.created).toBe(20);
    expect(a.result.errors.length + b.result.errors.length).toBe(20);
    expect((await patientsNamed('doble')).length).toBe(20);
  });

  it('converts Spanish labels and dates, and explains each refused row', async () => {
    const file = await xlsx([
      ['Nombre', 'Correo', 'Móvil', 'F. nacimiento', 'Sexo', 'DNI', 'CP', 'Motivo', 'Tipo de sesión'],
      ['Rocío', 'rocio@correo.es', '+34 600 111 222', '04/05/1990', 'mujer', dni(11111111), 28013, 'duelo', 'Pareja'],
      ['Otra', 'rocio@correo.es', null, null, null, null, null, null, null],
      ['Íker', 'iker@correo.es', 600222333, '31/02/1990', 'Hombre', '12345678A', null, 'Aburrimiento', 'Grupal'],
      [null, null, null, null, null, null, null, null, null],
      ['Sara', null, null, new Date(Date.UTC(1985, 10, 3)), 'Otro', null, 8001, 'Estrés laboral', null],
      // Spec §5: a name is letters only, so markup never becomes a patient's name.
      ['<img src=x onerror=alert(1)>', 'marcado@correo.es', null, null, null, null, null, null, null],
    ]);
    const { upload: up, result } = await importPatients(t, ws.id, owner.accessToken, file);
    expect(up.suggestedMapping).toEqual({
      firstName: 0,
      email: 1,
      phone: 2,
      birthdate: 3,
      gender: 4,
      taxId: 5,
      zipCode: 6,
      motive: 7,
      sessionType: 8,
    });
    expect(result.created).toBe(2);
    expect(result.errors).toEqual([
      { row: 3, reason: 'Email repetido en la fila 2' },
      {
        row: 4,
        reason:
          'Motivo de consulta desconocido: «Aburrimiento»; Tipo de sesión desconocido: «Grupal»; Fecha de nacimiento inválida; DNI/NIE inválido',
      },
      { row: 7, reason: 'Nombre: solo se permiten letras' },
    ]);
    const rocio = json<Patient>(
      await t.get(`/api/v1/workspaces/${ws.id}/patients/${(await patientsNamed('rocio@correo.es'))[0]!.id}`, { token: owner.accessToken }),
    );
    expect(rocio).toMatchObject({ birthdate: '1990-05-04', gender: 'female', treatment: { motive: 'mourning', sessionType: 'couple' } });
    const sara = json<Patient>(
      await t.get(`/api/v1/workspaces/${ws.id}/patients/${(await patientsNamed('sara'))[0]!.id}`, { token: owner.accessToken }),
    );
    expect(sara).toMatchObject({ birthdate: '1985-11-03', billingInfo: { zipCode: '08001' }, treatment: { motive: 'work_stress' } });
  });

  it('refuses a file that is not an Excel workbook with the catalogue message', async () => {
    const res = await upload(readFixture('no-es-excel.xlsx'));
    expect(json(res)).toEqual({ code: 'invalid_import_file', message: 'El archivo no es un Excel válido o no se puede leer.' });
    expect(res.statusCode).toBe(400);
    const fakeZip = await upload(Buffer.concat([Buffer.from('PK\u0003\u0004', 'latin1'), Buffer.alloc(64)]));
    expect(codeOf(fakeZip)).toBe('invalid_import_file');
    expect((await t.post(I, {}, { token: owner.accessToken })).statusCode).toBe(415);
  });

  it('keeps each import to its user, refuses a second commit and a bad mapping', async () => {
    const up = json<{ importId: string }>(await upload(await xlsx([['Nombre'], ['Ana']])));
    const path = `${I}/${up.importId}`;
    expect(codeOf(await t.get(path, { token: owner.accessToken }))).toBe('import_not_started');
    expect(codeOf(await t.get(path, { token: colleague.accessToken }))).toBe('import_not_found');
    expect(codeOf(await t.post(`${path}/commit`, { mapping: { firstName: 0 } }, { token: colleague.accessToken }))).toBe(
      'import_not_found',
    );
    expect(codeOf(await t.post(`${path}/commit`, { mapping: { firstName: 3 } }, { token: owner.accessToken }))).toBe('invalid_argument');
    const noName = await t.post(`${path}/commit`, { mapping: { email: 0 } }, { token: owner.accessToken });
    expect(json(noName)).toMatchObject({ code: 'invalid_argument', message: 'Indica qué columna contiene el nombre' });
    expect((await t.post(`${path}/commit`, { mapping: { firstName: 0 } }, { token: owner.accessToken })).statusCode).toBe(202);
    expect(codeOf(await t.post(`${path}/commit`, { mapping: { firstName: 0 } }, { token: owner.accessToken }))).toBe(
      'import_already_started',
    );
    expect(codeOf(await t.get(`${I}/${crypto.randomUUID()}`, { token: owner.accessToken }))).toBe('import_not_found');
  });

  it('refuses the whole import when it would pass the plan’s active-patient limit', async () => {
    const solo = await therapist(t, 'solo@consulta.test', 'Solo');
    const own = json<Workspace[]>(await t.get('/api/v1/workspaces', { token: solo.accessToken }))[0]!;
    await t.app.services.workspaces.setPlan(own.id, { id: 'basic' });
    const rows = Array.from({ length: 31 }, (_, i) => [`Paciente ${String.fromCharCode(97 + (i % 26))}`, `p${i}@correo.es`]);
    const { result } = await importPatients(t, own.id, solo.accessToken, await xlsx([['Nombre', 'Email'], ...rows]));
    expect(result).toMatchObject({ status: 'failed', created: 0, processed: 31 });
    expect(result.message).toContain('Tu plan permite 30 pacientes activos');
    const list = json<{ total: number }>(await t.get(`/api/v1/workspaces/${own.id}/patients`, { token: solo.accessToken }));
    expect(list.total).toBe(0);
    const { result: fits } = await importPatients(t, own.id, solo.accessToken, await xlsx([['Nombre', 'Email'], ...rows.slice(0, 30)]));
    expect(fits).toMatchObject({ status: 'done', created: 30 });
  });
});
