import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { DEFAULT_TIME_ZONE, todayIn } from '@divan/core';
import type { Patient, Workspace } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { addMember, createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';

let t: TestApp;
let owner: Therapist;
let ws: Workspace;
let P: string;
const codeOf = (res: { json(): unknown }) => (res.json() as { code: string }).code;
const expectError = (res: { statusCode: number; json(): unknown }, status: number, code: string) =>
  expect({ status: res.statusCode, code: codeOf(res) }).toEqual({ status, code });
const create = (body: Record<string, unknown>, token = owner.accessToken, path = P) => t.post(path, body, { token });

beforeAll(async () => {
  t = await createTestApp();
  owner = await therapist(t, 'elena@clinica.test', 'Elena');
  ws = await createWorkspace(t, owner, 'Clínica Sol', 'clinic');
  await t.app.services.workspaces.setPlan(ws.id, { id: 'team', seats: 10 });
  P = `/api/v1/workspaces/${ws.id}/patients`;
});
afterAll(() => t?.close());

describe('patients', () => {
  it('creates a patient with the §3 fields and normalised data', async () => {
    const res = await create({
      firstName: 'Álvaro',
      lastName: 'Núñez Prieto',
      email: 'Alvaro.Nunez@Correo.es',
      phone: '+34 612 345 678',
      birthdate: '1990-05-04',
      gender: 'male',
      billingInfo: {
        fullName: 'Álvaro Núñez Prieto',
        taxId: '12345678z',
        line1: 'Calle Mayor 3',
        city: 'Madrid',
        zipCode: '28013',
        country: 'España',
      },
      treatment: {
        motive: 'anxiety',
        sessionType: 'individual',
        referralSource: 'website',
        insuranceCompany: 'sanitas',
        insurancePolicy: 'P-1',
        sessionPrice: 6000,
        sessionModality: 'presential',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const p = json<Patient>(res);
    expect(p).toMatchObject({
      firstName: 'Álvaro',
      email: 'alvaro.nunez@correo.es',
      phone: '+34612345678',
      taxId: '12345678Z',
      status: 'active',
    });
    expect(p.treatment).toMatchObject({ motive: 'anxiety', sessionPrice: 6000, status: 'active', startDate: todayIn(DEFAULT_TIME_ZONE) });
  });

  it('refuses bad fields with Spanish messages and duplicates with patient_already_exists', async () => {
    const bad = await create({
      firstName: '',
      email: 'no-email',
      birthdate: '2999-01-01',
      billingInfo: { taxId: '12345678A' },
      treatment: { motive: 'boredom' },
    });
    expectError(bad, 400, 'invalid_argument');
    expect(json<{ fields: { path: string; message: string }[] }>(bad).fields).toEqual(
      expect.arrayContaining([
        { path: 'firstName', message: 'El campo nombre es obligatorio' },
        { path: 'email', message: 'Email inválido' },
        { path: 'birthdate', message: 'Fecha inválida' },
        { path: 'billingInfo.taxId', message: 'DNI/NIE inválido' },
        { path: 'treatment.motive', message: 'Opción inválida' },
      ]),
    );
    expectError(await create({ firstName: 'Otro', email: 'alvaro.nunez@correo.es' }), 409, 'patient_already_exists');
    expectError(await create({ firstName: 'Otro', billingInfo: { taxId: '12345678-Z' } }), 409, 'patient_already_exists');
  });

  it('searches by name, email, phone and tax id, ignoring accents and case', async () => {
    await create({ firstName: 'Begoña', lastName: 'Ibáñez', email: 'bego@correo.es', phone: '699 111 222' });
    const search = async (q: string) =>
      json<{ items: { firstName: string }[] }>(await t.get(`${P}?q=${encodeURIComponent(q)}`, { token: owner.accessToken })).items.map(
        (i) => i.firstName,
      );
    expect(await search('nunez')).toEqual(['Álvaro']);
    expect(await search('BEGONA')).toEqual(['Begoña']);
    expect(await search('699111')).toEqual(['Begoña']);
    // Stored as E.164; found however the number is typed.
    expect(await search('699 11 12')).toEqual(['Begoña']);
    expect(await search('+34 612 345')).toEqual(['Álvaro']);
    expect(await search('12345678z')).toEqual(['Álvaro']);
    expect(await search('correo.es')).toHaveLength(2);
    expect(await search('%')).toEqual([]);
  });

  it('filters, sorts, paginates and counts per status', async () => {
    // Names are letters only (spec §5): a letter tells them apart (a → 0, b → 1…).
    for (let i = 0; i < 7; i++)
      await create({
        firstName: `Paciente${'abcdefg'[i]}`,
        lastName: `Zeta${'abcdefg'[i]}`,
        treatment: { sessionType: i % 2 ? 'couple' : 'individual', motive: 'depression' },
      });
    const page = json<{ items: { lastName: string }[]; total: number; counts: Record<string, number>; page: number }>(
      await t.get(`${P}?sessionType=couple&sort=lastName&dir=desc&pageSize=2&page=1`, { token: owner.accessToken }),
    );
    expect(page.total).toBe(3);
    expect(page.items.map((i) => i.lastName)).toEqual(['Zetaf', 'Zetad']);
    expect(page.counts).toEqual({ active: 3, paused: 0, inactive: 0 });
    const second = json<{ items: { lastName: string }[] }>(
      await t.get(`${P}?sessionType=couple&sort=lastName&dir=desc&pageSize=2&page=2`, { token: owner.accessToken }),
    );
    expect(second.items.map((i) => i.lastName)).toEqual(['Zetab']);
    expectError(await t.get(`${P}?sort=password`, { token: owner.accessToken }), 400, 'invalid_argument');
    expectError(await t.get(`${P}?pageSize=1000`, { token: owner.accessToken }), 400, 'invalid_argument');
  });

  it('ends a treatment only with an end date and a reason, and counts it as inactive', async () => {
    const p = json<Patient>(await create({ firstName: 'Fin', lastName: 'Tratamiento' }));
    const path = `${P}/${p.id}/treatment`;
    const refused = await t.put(path, { status: 'inactive' }, { token: owner.accessToken });
    expectError(refused, 400, 'treatment_end_required');
    expect(json<{ fields: { path: string }[] }>(refused).fields.map((f) => f.path)).toEqual(['endDate', 'endingReason']);
    expectError(
      await t.put(path, { status: 'inactive', endDate: '2026-01-01', endingReason: 'sleepy' }, { token: owner.accessToken }),
      400,
      'invalid_argument',
    );
    const ended = json<Patient>(
      await t.put(
        path,
        { status: 'inactive', endDate: todayIn(DEFAULT_TIME_ZONE), endingReason: 'completed' },
        { token: owner.accessToken },
      ),
    );
    expect(ended.treatment).toMatchObject({ status: 'inactive', endingReason: 'completed' });
    const paused = json<Patient>(await t.put(path, { status: 'paused' }, { token: owner.accessToken }));
    expect(paused.treatment).toMatchObject({ status: 'paused', endDate: null, endingReason: null });
    const counts = json<{ counts: Record<string, number> }>(await t.get(P, { token: owner.accessToken })).counts;
    expect(counts.paused).toBe(1);
  });

  it('a therapist who sees only assigned patients gets 404 on anyone else’s file', async () => {
    const ana = await therapist(t, 'ana@clinica.test', 'Ana');
    const therapistRole = ws.roles.find((r) => r.name === 'Terapeuta')!.id;
    await addMember(t, owner, ws.id, ana, [therapistRole]);
    const others = json<{ items: { id: string }[] }>(await t.get(P, { token: owner.accessToken })).items;
    const mine = json<Patient>(await create({ firstName: 'Asignada', lastName: 'A Ana' }, ana.accessToken));
    expect(mine.assignedTherapist).toMatchObject({ id: ana.userId, name: 'Ana' });
    const list = json<{ items: { id: string }[]; total: number }>(await t.get(P, { token: ana.accessToken }));
    expect(list.items.map((i) => i.id)).toEqual([mine.id]);
    expectError(await t.get(`${P}/${others[0]!.id}`, { token: ana.accessToken }), 404, 'patient_not_found');
    expectError(await t.get(`${P}/${others[0]!.id}/history`, { token: ana.accessToken }), 404, 'patient_not_found');
    expectError(
      await t.put(`${P}/${others[0]!.id}/assignment`, { therapistId: ana.userId }, { token: ana.accessToken }),
      403,
      'access_denied',
    );
    // The owner assigns one to Ana: now she sees it.
    const assigned = await t.put(`${P}/${others[0]!.id}/assignment`, { therapistId: ana.userId }, { token: owner.accessToken });
    expect(json<Patient>(assigned).assignedTherapist?.id).toBe(ana.userId);
    expect((await t.get(`${P}/${others[0]!.id}`, { token: ana.accessToken })).statusCode).toBe(200);
    expectError(
      await t.put(`${P}/${others[0]!.id}/assignment`, { therapistId: crypto.randomUUID() }, { token: owner.accessToken }),
      400,
      'therapist_not_member',
    );
  });

  it('reception sees contact and billing data but no treatment', async () => {
    const rosa = await therapist(t, 'rosa@clinica.test', 'Rosa');
    await addMember(t, owner, ws.id, rosa, [ws.roles.find((r) => r.name === 'Recepción')!.id]);
    const first = json<{ items: { id: string }[] }>(await t.get(P, { token: rosa.accessToken })).items[0]!;
    const p = json<Patient>(await t.get(`${P}/${first.id}`, { token: rosa.accessToken }));
    expect(p).not.toHaveProperty('treatment');
    expect(p.billingInfo).not.toBeNull();
    expectError(await t.get(`${P}/${first.id}/history`, { token: rosa.accessToken }), 403, 'access_denied');
  });

  it('Basic allows 30 active patients per therapist', async () => {
    const solo = await therapist(t, 'solo@example.com', 'Solo');
    const own = json<Workspace[]>(await t.get('/api/v1/workspaces', { token: solo.accessToken }))[0]!;
    await t.app.services.workspaces.setPlan(own.id, { id: 'basic' });
    const path = `/api/v1/workspaces/${own.id}/patients`;
    const nth = (i: number) => `P${String.fromCharCode(97 + Math.floor(i / 26), 97 + (i % 26))}`; // letters only (spec §5)
    for (let i = 0; i < 30; i++) expect((await create({ firstName: nth(i) }, solo.accessToken, path)).statusCode).toBe(201);
    expectError(await create({ firstName: nth(30) }, solo.accessToken, path), 409, 'patient_limit_reached');
    // Pausing one frees a place; reactivating it past the limit is refused.
    const one = json<{ items: { id: string }[] }>(await t.get(`${path}?pageSize=1`, { token: solo.accessToken })).items[0]!;
    await t.put(`${path}/${one.id}/treatment`, { status: 'paused' }, { token: solo.accessToken });
    expect((await create({ firstName: nth(31) }, solo.accessToken, path)).statusCode).toBe(201);
    expectError(
      await t.put(`${path}/${one.id}/treatment`, { status: 'active' }, { token: solo.accessToken }),
      409,
      'patient_limit_reached',
    );
  });

  it('deleting inside the retention period blocks the record and says until when; after it, erases', async () => {
    const p = json<Patient>(await create({ firstName: 'Retenido' }));
    const res = json<{ result: string; retainedUntil: string; message: string }>(await t.del(`${P}/${p.id}`, { token: owner.accessToken }));
    expect(res.result).toBe('blocked');
    expect(res.retainedUntil.slice(0, 4)).toBe(String(new Date().getUTCFullYear() + 5));
    expect(res.message).toContain('5 años');
    expectError(await t.get(`${P}/${p.id}`, { token: owner.accessToken }), 404, 'patient_not_found');
    const [row] = await t.rows<{ blocked_at: Date | null }>(sql`select blocked_at from patients where id = ${p.id}`);
    expect(row!.blocked_at).not.toBeNull();

    const old = json<Patient>(await create({ firstName: 'Antiguo' }));
    await t.rows(
      sql`update patients set last_activity_at = now() - interval '6 years', treatment_end_date = (now() - interval '6 years')::date where id = ${old.id}`,
    );
    expect(json(await t.del(`${P}/${old.id}`, { token: owner.accessToken }))).toMatchObject({ result: 'deleted', retainedUntil: null });
    expect(await t.rows(sql`select id from patients where id = ${old.id}`)).toEqual([]);
  });
});
