import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Patient, Task, Workspace } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { createWorkspace, withWorkspace, type Therapist } from '../../test/workspace-fixtures';

let t: TestApp;
let owner: Therapist;
let colleague: Therapist;
let reception: Therapist;
let ws: Workspace;
let other: Workspace;
let T: string;
/** The first patient's id. */
let irene: string;
const codeOf = (res: { json(): unknown }) => (res.json() as { code: string }).code;

beforeAll(async () => {
  t = await createTestApp();
  ({
    owner,
    ws,
    patientId: irene,
    members: { colleague, reception },
  } = await withWorkspace(t, 'Clínica Tareas', {
    owner: { email: 'luis@tareas.test', firstName: 'Luis' },
    plan: { id: 'team', seats: 10 },
    members: {
      colleague: { email: 'marta@tareas.test', firstName: 'Marta', role: 'Terapeuta' },
      // A member who reads no patient at all.
      reception: {
        email: 'recep@tareas.test',
        firstName: 'Rosa',
        role: { name: 'Sin pacientes', permissions: [{ action: 'read', subject: 'workspace_profile' }] },
      },
    },
    patient: { firstName: 'Irene', lastName: 'Campos' },
  }));
  other = await createWorkspace(t, owner, 'Otra consulta', 'clinic');
  T = `/api/v1/workspaces/${ws.id}/tasks`;
}, 60_000);
afterAll(() => t?.close());

describe('tasks', () => {
  it('creates, lists (open first, by due day), edits and deletes the caller’s own tasks', async () => {
    const a = await t.post(T, { title: '  Llamar a la mutua  ', dueDate: '2026-11-25' }, { token: owner.accessToken });
    expect(a.statusCode, a.body).toBe(201);
    expect(json<Task>(a)).toMatchObject({ title: 'Llamar a la mutua', dueDate: '2026-11-25', done: false, doneAt: null, patient: null });
    const b = json<Task>(
      await t.post(T, { title: 'Preparar informe', dueDate: '2026-11-20', patientId: irene }, { token: owner.accessToken }),
    );
    expect(b.patient).toEqual({ id: irene, name: 'Irene Campos' });
    const c = json<Task>(await t.post(T, { title: 'Sin fecha', dueDate: '' }, { token: owner.accessToken }));
    expect(c.dueDate).toBeNull();
    const list = async (q = '') => json<Task[]>(await t.get(`${T}${q}`, { token: owner.accessToken })).map((x) => x.title);
    expect(await list()).toEqual(['Preparar informe', 'Llamar a la mutua', 'Sin fecha']);

    const done = await t.patch(`${T}/${b.id}`, { done: true }, { token: owner.accessToken });
    expect(done.statusCode, done.body).toBe(200);
    expect(json<Task>(done).doneAt).not.toBeNull();
    expect(await list()).toEqual(['Llamar a la mutua', 'Sin fecha', 'Preparar informe']);
    expect(await list('?status=open')).toEqual(['Llamar a la mutua', 'Sin fecha']);
    expect(await list('?status=done')).toEqual(['Preparar informe']);
    expect(await list(`?patientId=${irene}`)).toEqual(['Preparar informe']);
    expect(await list('?dueBefore=2026-11-24')).toEqual(['Preparar informe']);

    const edited = json<Task>(
      await t.patch(`${T}/${a.json<Task>().id}`, { title: 'Llamar a la aseguradora', dueDate: null }, { token: owner.accessToken }),
    );
    expect(edited).toMatchObject({ title: 'Llamar a la aseguradora', dueDate: null, done: false });
    const reopened = json<Task>(await t.patch(`${T}/${b.id}`, { done: false }, { token: owner.accessToken }));
    expect(reopened).toMatchObject({ done: false, doneAt: null });

    expect((await t.del(`${T}/${c.id}`, { token: owner.accessToken })).statusCode).toBe(204);
    expect(codeOf(await t.del(`${T}/${c.id}`, { token: owner.accessToken }))).toBe('task_not_found');
    expect(await list()).not.toContain('Sin fecha');
  });

  it('keeps each list to its owner: a colleague neither sees nor touches it (404)', async () => {
    const mine = json<Task>(await t.post(T, { title: 'Privada de Luis' }, { token: owner.accessToken }));
    const theirs = json<Task[]>(await t.get(T, { token: colleague.accessToken }));
    expect(theirs.map((x) => x.title)).not.toContain('Privada de Luis');
    for (const res of [
      await t.patch(`${T}/${mine.id}`, { done: true }, { token: colleague.accessToken }),
      await t.del(`${T}/${mine.id}`, { token: colleague.accessToken }),
    ])
      expect([res.statusCode, codeOf(res)]).toEqual([404, 'task_not_found']);
    // A member with no patient permission still keeps a to-do list.
    const own = await t.post(T, { title: 'Pedir material' }, { token: reception.accessToken });
    expect(own.statusCode, own.body).toBe(201);
  });

  it('answers 404 for a task or a patient of another workspace', async () => {
    const mine = json<Task>(await t.post(T, { title: 'De esta consulta' }, { token: owner.accessToken }));
    const O = `/api/v1/workspaces/${other.id}/tasks`;
    const res = await t.patch(`${O}/${mine.id}`, { done: true }, { token: owner.accessToken });
    expect([res.statusCode, codeOf(res)]).toEqual([404, 'task_not_found']);
    expect((await t.del(`${O}/${mine.id}`, { token: owner.accessToken })).statusCode).toBe(404);
    const elsewhere = await t.post(O, { title: 'Con paciente ajeno', patientId: irene }, { token: owner.accessToken });
    expect([elsewhere.statusCode, codeOf(elsewhere)]).toEqual([404, 'patient_not_found']);
    const filtered = await t.get(`${O}?patientId=${irene}`, { token: owner.accessToken });
    expect(filtered.statusCode).toBe(404);
  });

  it('links a patient only if the member may read them, and hides the name once they may not', async () => {
    const refused = await t.post(T, { title: 'Revisar a Irene', patientId: irene }, { token: reception.accessToken });
    expect([refused.statusCode, codeOf(refused)]).toEqual([404, 'patient_not_found']);
    // A Terapeuta reads the patients assigned to them: Nora, until she is assigned to the owner.
    const assignable = json<Patient>(
      await t.post(
        `/api/v1/workspaces/${ws.id}/patients`,
        { firstName: 'Nora', lastName: 'Gil', assignedTherapistId: colleague.userId },
        { token: owner.accessToken },
      ),
    );
    const task = json<Task>(await t.post(T, { title: 'Enviar cuestionario', patientId: assignable.id }, { token: colleague.accessToken }));
    expect(task.patient).toEqual({ id: assignable.id, name: 'Nora Gil' });
    await t.put(
      `/api/v1/workspaces/${ws.id}/patients/${assignable.id}/assignment`,
      { therapistId: owner.userId },
      { token: owner.accessToken },
    );
    const after = json<Task[]>(await t.get(T, { token: colleague.accessToken })).find((x) => x.id === task.id)!;
    expect(after.patient).toEqual({ id: assignable.id, name: null });
  });

  it('hides the name of a deleted (blocked) patient, and keeps the task unlinked once the patient is erased', async () => {
    const gone = json<Patient>(
      await t.post(`/api/v1/workspaces/${ws.id}/patients`, { firstName: 'Olga', lastName: 'Sanz' }, { token: owner.accessToken }),
    );
    const task = json<Task>(await t.post(T, { title: 'Devolver el informe', patientId: gone.id }, { token: owner.accessToken }));
    const del = await t.del(`/api/v1/workspaces/${ws.id}/patients/${gone.id}`, { token: owner.accessToken });
    // A patient's file is kept blocked for its legal retention period: hidden, so the task shows no name.
    expect(json<{ result: string }>(del).result).toBe('blocked');
    const find = async () => json<Task[]>(await t.get(T, { token: owner.accessToken })).find((x) => x.id === task.id);
    expect((await find())?.patient).toEqual({ id: gone.id, name: null });
    // Once erased, the task stays, with no patient.
    expect(await t.app.services.patients.eraseExpiredBlocked(new Date('2040-01-01'))).toBeGreaterThanOrEqual(1);
    expect(await find()).toMatchObject({ title: 'Devolver el informe', patient: null });
  });

  it('refuses bad input with a Spanish 400', async () => {
    const cases: [unknown, string][] = [
      [{ title: '' }, 'título'],
      [{ title: 'x'.repeat(201) }, '200'],
      [{ title: 'ok', dueDate: '2026-02-30' }, 'Fecha'],
      [{ title: 'a\u0000b' }, 'caracteres'],
      [{ title: 'ok', patientId: 'nope' }, 'Paciente'],
    ];
    for (const [body, words] of cases) {
      const res = await t.post(T, body, { token: owner.accessToken });
      expect([res.statusCode, codeOf(res)], res.body).toEqual([400, 'invalid_argument']);
      expect(res.body).toContain(words);
    }
    expect((await t.get(`${T}?dueBefore=2026-13-01`, { token: owner.accessToken })).statusCode).toBe(400);
    expect((await t.get(`${T}?status=todas`, { token: owner.accessToken })).statusCode).toBe(400);
  });
});
