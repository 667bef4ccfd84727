// Imports are kept in the database between their requests: encrypted rows, one claim per upload,
// a stalled run reported as failed, and any server process able to take the commit or answer a poll.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Workspace } from '@divan/core';
import { createSecondApp, createTestApp, json, type TestApp } from '../../test/test-app';
import { addMember, createRole, createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';
import { multipart } from '../../test/images';
import { xlsx, XLSX_TYPE } from '../../test/spreadsheets';

const codeOf = (res: { json(): unknown }) => (res.json() as { code: string }).code;
const upload = async (app: TestApp, path: string, token: string, data: Buffer) => {
  const { payload, headers } = multipart('file', 'pacientes.xlsx', XLSX_TYPE, data);
  const res = await app.app.inject({ method: 'POST', url: path, payload, headers: { ...headers, authorization: `Bearer ${token}` } });
  expect(res.statusCode, res.body).toBe(201);
  return json<{ importId: string; suggestedMapping: Record<string, number> }>(res);
};
const settle = async (app: TestApp, path: string, token: string) => {
  for (let i = 0; i < 500; i++) {
    const s = json<{ status: string; created: number; message?: string }>(await app.get(path, { token }));
    if (s.status === 'done' || s.status === 'failed') return s;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the import did not settle');
};
const sheet = (prefix: string) =>
  xlsx([
    ['Nombre', 'Apellidos', 'Email', 'Fecha de nacimiento'],
    [`${prefix}Remedios`, 'Secreto Íntimo', `${prefix.toLowerCase()}remedios@correo.test`, new Date(Date.UTC(1981, 4, 17))],
    [`${prefix}Tomás`, 'Reservado', `${prefix.toLowerCase()}tomas@correo.test`, '03/02/1975'],
  ]);

describe('import jobs in the database', () => {
  let t: TestApp;
  let owner: Therapist;
  let ws: Workspace;
  let I: string;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await therapist(t, 'rosa@import.test', 'Rosa');
    ws = await createWorkspace(t, owner, 'Clínica Jobs', 'team');
    await t.app.services.workspaces.setPlan(ws.id, { id: 'team', seats: 5 });
    I = `/api/v1/workspaces/${ws.id}/patient-imports`;
  });
  afterAll(() => t?.close());

  it("keeps an upload's rows encrypted, and drops them once imported (dates kept as dates)", async () => {
    const up = await upload(t, I, owner.accessToken, await sheet('A'));
    const [stored] = await t.rows<{ rows_enc: string | null; columns: unknown }>(
      sql`select rows_enc, columns from patient_imports where id = ${up.importId}`,
    );
    expect(stored!.rows_enc).toBeTruthy();
    expect(stored!.rows_enc).not.toMatch(/Remedios|Secreto|correo/);
    expect((await t.post(`${I}/${up.importId}/commit`, { mapping: up.suggestedMapping }, { token: owner.accessToken })).statusCode).toBe(
      202,
    );
    expect(await settle(t, `${I}/${up.importId}`, owner.accessToken)).toMatchObject({ status: 'done', created: 2 });
    const [after] = await t.rows<{ rows_enc: string | null }>(sql`select rows_enc from patient_imports where id = ${up.importId}`);
    expect(after!.rows_enc).toBeNull();
    const list = json<{ items: { id: string }[] }>(
      await t.get(`/api/v1/workspaces/${ws.id}/patients?q=aremedios`, { token: owner.accessToken }),
    ).items;
    const p = json<{ birthdate: string }>(await t.get(`/api/v1/workspaces/${ws.id}/patients/${list[0]!.id}`, { token: owner.accessToken }));
    expect(p.birthdate).toBe('1981-05-17');
  });

  it('starts one import when the same upload is committed twice at once', async () => {
    const up = await upload(t, I, owner.accessToken, await sheet('B'));
    const commit = () => t.post(`${I}/${up.importId}/commit`, { mapping: up.suggestedMapping }, { token: owner.accessToken });
    const answers = await Promise.all([commit(), commit()]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([202, 409]);
    expect(codeOf(answers.find((a) => a.statusCode === 409)!)).toBe('import_already_started');
    expect(await settle(t, `${I}/${up.importId}`, owner.accessToken)).toMatchObject({ status: 'done', created: 2 });
  });

  it('reports an import whose process stopped as failed, saying nothing was imported', async () => {
    const up = await upload(t, I, owner.accessToken, await sheet('C'));
    const progress = { status: 'validating', processed: 1, total: 2, created: 0, errors: [] };
    await t.rows(
      sql`update patient_imports set progress = ${JSON.stringify(progress)}::jsonb, updated_at = now() - interval '15 minutes' where id = ${up.importId}`,
    );
    const s = json<{ status: string; message: string }>(await t.get(`${I}/${up.importId}`, { token: owner.accessToken }));
    expect(s.status).toBe('failed');
    expect(s.message).toContain('No se ha importado ningún paciente');
  });
});

describe('the import job reads permissions when it runs', () => {
  it('imports nothing for someone who lost the right to create patients after committing', async () => {
    // Jobs enqueue but do not run until the permission has changed: what counts is the state at run time.
    const t = await createTestApp({ runJobs: false });
    try {
      const owner = await therapist(t, 'ana@import.test', 'Ana');
      const colleague = await therapist(t, 'ines@import.test', 'Inés');
      const ws = await createWorkspace(t, owner, 'Clínica Permisos', 'team');
      await t.app.services.workspaces.setPlan(ws.id, { id: 'team', seats: 5 });
      const { memberId } = await addMember(t, owner, ws.id, colleague, [ws.roles.find((r) => r.name === 'Terapeuta')!.id]);
      const I = `/api/v1/workspaces/${ws.id}/patient-imports`;
      const up = await upload(t, I, colleague.accessToken, await sheet('E'));
      expect(
        (await t.post(`${I}/${up.importId}/commit`, { mapping: up.suggestedMapping }, { token: colleague.accessToken })).statusCode,
      ).toBe(202);
      const readOnly = await createRole(t, owner, ws.id, 'Solo lectura', [{ action: 'read', subject: 'patient_files' }]);
      expect(
        (await t.patch(`/api/v1/workspaces/${ws.id}/members/${memberId}`, { roleIds: [readOnly.id] }, { token: owner.accessToken }))
          .statusCode,
      ).toBe(200);
      t.app.services.jobs.startWorkers();
      const outcome = async () =>
        (
          await t.rows<{ progress: { status: string; message?: string } }>(
            sql`select progress from patient_imports where id = ${up.importId}`,
          )
        )[0]!.progress;
      for (let i = 0; i < 200 && (await outcome()).status !== 'failed'; i++) await new Promise((r) => setTimeout(r, 50));
      expect(await outcome()).toMatchObject({ status: 'failed', message: expect.stringContaining('Ya no tienes permiso') });
      expect(
        json<{ total: number }>(await t.get(`/api/v1/workspaces/${ws.id}/patients?q=eremedios`, { token: owner.accessToken })).total,
      ).toBe(0);
    } finally {
      await t.close();
    }
  });
});

const redisUrl = process.env.REDIS_URL;
describe.skipIf(!process.env.TEST_DATABASE_URL)('across two server processes sharing PostgreSQL', () => {
  it('uploaded through one, committed through the other, polled through the first', async () => {
    const a = await createTestApp({ redisUrl });
    let b: TestApp | undefined;
    try {
      b = await createSecondApp(a, { redisUrl });
      const owner = await therapist(a, 'lola@import.test', 'Lola');
      const ws = json<Workspace[]>(await a.get('/api/v1/workspaces', { token: owner.accessToken }))[0]!;
      const I = `/api/v1/workspaces/${ws.id}/patient-imports`;
      const up = await upload(a, I, owner.accessToken, await sheet('D'));
      expect((await b.post(`${I}/${up.importId}/commit`, { mapping: up.suggestedMapping }, { token: owner.accessToken })).statusCode).toBe(
        202,
      );
      expect(await settle(a, `${I}/${up.importId}`, owner.accessToken)).toMatchObject({ status: 'done', created: 2 });
      expect(
        json<{ total: number }>(await a.get(`/api/v1/workspaces/${ws.id}/patients?q=dremedios`, { token: owner.accessToken })).total,
      ).toBe(1);
    } finally {
      await b?.close();
      await a.close();
    }
  });
});
