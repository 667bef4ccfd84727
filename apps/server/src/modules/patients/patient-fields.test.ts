// Fields, not only records: for each default role (and a custom one without billing), exactly which
// fields of a patient it reads (keys of GET patient and of a list item) and which it may write, over the API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { readFileSync } from 'node:fs';
import type { Patient, Workspace } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { addMember, createRole, createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';
import { importPatients, xlsx } from '../../test/spreadsheets';

let t: TestApp;
const sorted = (xs: string[]) => [...xs].sort();

const SUMMARY_BASE = ['assignedTherapist', 'createdAt', 'email', 'firstName', 'id', 'lastName', 'phone'];
const SUMMARY_TREATMENT = ['motive', 'sessionType', 'status', 'treatmentStartDate'];
const FILE_BASE = [...SUMMARY_BASE, 'birthdate', 'blockedAt', 'counts', 'gender', 'lastActivityAt'];
const TREATMENT_KEYS = [
  'endDate',
  'endingReason',
  'insuranceCompany',
  'insurancePolicy',
  'medication',
  'motive',
  'referralSource',
  'sessionModality',
  'sessionPrice',
  'sessionType',
  'startDate',
  'status',
];
const FULL = {
  item: sorted([...SUMMARY_BASE, ...SUMMARY_TREATMENT, 'taxId']),
  file: sorted([...FILE_BASE, ...SUMMARY_TREATMENT, 'taxId', 'billingInfo', 'treatment']),
  counts: ['documents', 'historyEntries'],
  listCounts: true,
};

const full = {
  firstName: 'Lucía',
  lastName: 'Vega',
  email: null as string | null,
  phone: '612 345 678',
  birthdate: '1988-03-02',
  gender: 'female',
  billingInfo: {
    fullName: 'Lucía Vega',
    taxId: null as string | null,
    line1: 'Calle Sol 1',
    city: 'Sevilla',
    zipCode: '41001',
    country: 'España',
  },
  treatment: {
    motive: 'anxiety',
    sessionType: 'individual',
    medication: 'Sertralina 50 mg',
    referralSource: 'website',
    insuranceCompany: 'dkv',
    insurancePolicy: 'POL-9',
    sessionPrice: 6000,
    sessionModality: 'online',
  },
};
let taxIds = [
  '00000000T',
  '00000001R',
  '00000002W',
  '00000003A',
  '00000004G',
  '00000005M',
  '00000006Y',
  '00000007F',
  '00000008P',
  '00000009D',
  '00000010X',
];
/** A patient with every field filled, created by an administrator, optionally assigned. */
async function fullPatient(admin: Therapist, wsId: string, assignedTherapistId?: string) {
  const [taxId, ...rest] = taxIds;
  taxIds = rest;
  const res = await t.post(
    `/api/v1/workspaces/${wsId}/patients`,
    { ...full, email: `lucia${taxIds.length}@correo.test`, billingInfo: { ...full.billingInfo, taxId }, assignedTherapistId },
    { token: admin.accessToken },
  );
  expect(res.statusCode, res.body).toBe(201);
  return json<Patient>(res);
}

/** What `token` reads of patient `id`: keys of its list item and its file, of the file's counts, and whether the list counts per status. */
async function readsOf(token: string, wsId: string, id: string) {
  const P = `/api/v1/workspaces/${wsId}/patients`;
  const list = json<{ items: Record<string, unknown>[]; counts?: unknown }>(await t.get(`${P}?pageSize=100`, { token }));
  const item = list.items.find((i) => i.id === id)!;
  const file = json<Record<string, unknown>>(await t.get(`${P}/${id}`, { token }));
  expect(item, 'listed').toBeDefined();
  if (file.treatment) expect(sorted(Object.keys(file.treatment))).toEqual(TREATMENT_KEYS);
  if (file.billingInfo) expect(file.billingInfo).toMatchObject({ city: 'Sevilla' });
  return {
    item: sorted(Object.keys(item)),
    file: sorted(Object.keys(file)),
    counts: sorted(Object.keys(file.counts as object)),
    listCounts: 'counts' in list,
  };
}

/** Status of each kind of write by `token`: create with each field group, edit each group of patient `id`. */
async function writesOf(token: string, wsId: string, id: string) {
  const P = `/api/v1/workspaces/${wsId}/patients`;
  const status = async (res: Promise<{ statusCode: number }>) => (await res).statusCode;
  return {
    create: await status(t.post(P, { firstName: 'Nuevo' }, { token })),
    createBilling: await status(t.post(P, { firstName: 'Nuevo', billingInfo: { city: 'Cádiz' } }, { token })),
    createTreatment: await status(t.post(P, { firstName: 'Nuevo', treatment: { medication: 'Lorazepam' } }, { token })),
    updateInfo: await status(t.patch(`${P}/${id}`, { lastName: 'Vega Ruiz' }, { token })),
    updateBilling: await status(t.patch(`${P}/${id}`, { billingInfo: { city: 'Huelva' } }, { token })),
    updateTreatment: await status(t.put(`${P}/${id}/treatment`, { medication: 'Escitalopram 10 mg' }, { token })),
  };
}
const ALL_WRITES = { create: 201, createBilling: 201, createTreatment: 201, updateInfo: 200, updateBilling: 200, updateTreatment: 200 };

let clinicOwner: Therapist;
let clinic: Workspace;
beforeAll(async () => {
  t = await createTestApp();
  clinicOwner = await therapist(t, 'carmen@clinica.test', 'Carmen');
  clinic = await createWorkspace(t, clinicOwner, 'Clínica Norte', 'clinic');
  await t.app.services.workspaces.setPlan(clinic.id, { id: 'team', seats: 10 });
});
afterAll(() => t?.close());

describe('what each role reads and writes of a patient', () => {
  it('freelance administrator: every field, every write', async () => {
    const solo = await therapist(t, 'solo@consulta.test', 'Sol');
    const ws = json<Workspace[]>(await t.get('/api/v1/workspaces', { token: solo.accessToken }))[0]!;
    const p = await fullPatient(solo, ws.id);
    expect(await readsOf(solo.accessToken, ws.id, p.id)).toEqual(FULL);
    expect(await writesOf(solo.accessToken, ws.id, p.id)).toEqual(ALL_WRITES);
  });

  it('team Terapeuta: every field of every patient, every write', async () => {
    const owner = await therapist(t, 'jefa@equipo.test', 'Jefa');
    const ws = await createWorkspace(t, owner, 'Equipo Sur', 'team');
    await t.app.services.workspaces.setPlan(ws.id, { id: 'team', seats: 10 });
    const mate = await therapist(t, 'mate@equipo.test', 'Mateo');
    await addMember(t, owner, ws.id, mate, [ws.roles.find((r) => r.name === 'Terapeuta')!.id]);
    const p = await fullPatient(owner, ws.id);
    expect(await readsOf(mate.accessToken, ws.id, p.id)).toEqual(FULL);
    expect(await writesOf(mate.accessToken, ws.id, p.id)).toEqual(ALL_WRITES);
  });

  it('clinic Terapeuta: every field of an assigned patient, nothing of the others', async () => {
    const ana = await therapist(t, 'ana@clinica.test', 'Ana');
    await addMember(t, clinicOwner, clinic.id, ana, [clinic.roles.find((r) => r.name === 'Terapeuta')!.id]);
    const mine = await fullPatient(clinicOwner, clinic.id, ana.userId);
    const other = await fullPatient(clinicOwner, clinic.id);
    expect(await readsOf(ana.accessToken, clinic.id, mine.id)).toEqual(FULL);
    expect(await writesOf(ana.accessToken, clinic.id, mine.id)).toEqual(ALL_WRITES);
    expect((await t.get(`/api/v1/workspaces/${clinic.id}/patients/${other.id}`, { token: ana.accessToken })).statusCode).toBe(404);
  });

  it('clinic Recepción: contact and billing, no clinical field; writes no treatment', async () => {
    const rosa = await therapist(t, 'rosa@clinica.test', 'Rosa');
    await addMember(t, clinicOwner, clinic.id, rosa, [clinic.roles.find((r) => r.name === 'Recepción')!.id]);
    const p = await fullPatient(clinicOwner, clinic.id);
    expect(await readsOf(rosa.accessToken, clinic.id, p.id)).toEqual({
      item: sorted([...SUMMARY_BASE, 'taxId']),
      file: sorted([...FILE_BASE, 'taxId', 'billingInfo']),
      counts: [],
      listCounts: false,
    });
    expect(await writesOf(rosa.accessToken, clinic.id, p.id)).toEqual({ ...ALL_WRITES, createTreatment: 403, updateTreatment: 403 });
    // The refusal names the group and the field; nothing was created.
    const refused = await t.post(
      `/api/v1/workspaces/${clinic.id}/patients`,
      { firstName: 'Con', lastName: 'Medicación', treatment: { medication: 'Litio' } },
      { token: rosa.accessToken },
    );
    expect(json(refused)).toMatchObject({
      code: 'access_denied',
      message: 'No tienes permiso para editar estos datos: Tratamiento.',
      fields: [{ path: 'treatment.medication' }],
    });
    expect(await t.rows(sql`select id from patients where last_name = 'Medicación'`)).toEqual([]);
  });

  it('a custom role without billing: no tax id nor billing data, writes none', async () => {
    const role = await createRole(t, clinicOwner, clinic.id, 'Terapeuta sin facturación', [
      { action: 'manage', subject: 'patient_files' },
      { action: 'manage', subject: 'patient_treatment' },
      { action: 'manage', subject: 'patient_histories' },
    ]);
    const leo = await therapist(t, 'leo@clinica.test', 'Leo');
    await addMember(t, clinicOwner, clinic.id, leo, [role.id]);
    const p = await fullPatient(clinicOwner, clinic.id);
    expect(await readsOf(leo.accessToken, clinic.id, p.id)).toEqual({
      item: sorted([...SUMMARY_BASE, ...SUMMARY_TREATMENT]),
      file: sorted([...FILE_BASE, ...SUMMARY_TREATMENT, 'treatment']),
      counts: ['historyEntries'],
      listCounts: true,
    });
    expect(await writesOf(leo.accessToken, clinic.id, p.id)).toEqual({ ...ALL_WRITES, createBilling: 403, updateBilling: 403 });
    const refused = await t.patch(
      `/api/v1/workspaces/${clinic.id}/patients/${p.id}`,
      { billingInfo: { taxId: null } },
      { token: leo.accessToken },
    );
    expect(json(refused)).toMatchObject({
      code: 'access_denied',
      message: 'No tienes permiso para editar estos datos: Datos de facturación del paciente.',
    });
  });
});

describe('lists filter, sort, count and search only by fields the member reads', () => {
  it('Recepción may not filter or sort by treatment, and finds no one by clinical data; finds by tax id', async () => {
    const rosa = await therapist(t, 'rosa2@clinica.test', 'Rosa');
    await addMember(t, clinicOwner, clinic.id, rosa, [clinic.roles.find((r) => r.name === 'Recepción')!.id]);
    const p = await fullPatient(clinicOwner, clinic.id);
    const P = `/api/v1/workspaces/${clinic.id}/patients`;
    for (const query of ['motive=anxiety', 'status=active', 'sessionType=individual', 'sort=treatmentStartDate']) {
      const res = await t.get(`${P}?${query}`, { token: rosa.accessToken });
      expect({ query, status: res.statusCode, body: json(res) }).toMatchObject({
        query,
        status: 403,
        body: { code: 'access_denied', message: 'No tienes permiso para filtrar ni ordenar por estos datos: Tratamiento.' },
      });
    }
    const found = async (q: string, token: string) =>
      json<{ items: { id: string }[] }>(await t.get(`${P}?q=${encodeURIComponent(q)}`, { token })).items.map((i) => i.id);
    for (const q of ['sertralina', 'anxiety', 'ansiedad', 'individual', 'dkv', 'POL-9'])
      expect(await found(q, rosa.accessToken), q).toEqual([]);
    expect(await found(p.taxId!, rosa.accessToken)).toEqual([p.id]);
    expect(await found(p.taxId!.slice(0, 6), clinicOwner.accessToken)).toContain(p.id);
  });

  it('a role without billing finds no one by tax id; the search text holds neither clinical nor billing data', async () => {
    const leo = await therapist(t, 'leo2@clinica.test', 'Leo');
    const role = await createRole(t, clinicOwner, clinic.id, 'Solo fichas y tratamiento', [
      { action: 'read', subject: 'patient_files' },
      { action: 'read', subject: 'patient_treatment' },
    ]);
    await addMember(t, clinicOwner, clinic.id, leo, [role.id]);
    const p = await fullPatient(clinicOwner, clinic.id);
    const P = `/api/v1/workspaces/${clinic.id}/patients`;
    const list = json<{ items: { id: string }[] }>(await t.get(`${P}?q=${p.taxId}`, { token: leo.accessToken }));
    expect(list.items).toEqual([]);
    expect((await t.get(`${P}?motive=anxiety&sort=treatmentStartDate`, { token: leo.accessToken })).statusCode).toBe(200);
    const [row] = await t.rows<{ search_text: string }>(sql`select search_text from patients where id = ${p.id}`);
    expect(row!.search_text).toBe(`lucia vega ${p.email} +34612345678 34612345678`);
  });

  it('migration 0013 takes the tax id out of search texts written by earlier versions', async () => {
    const p = await fullPatient(clinicOwner, clinic.id);
    const [before] = await t.rows<{ search_text: string }>(sql`select search_text from patients where id = ${p.id}`);
    // As searchTextOf wrote it before: the lower-cased tax id as the last word.
    await t.rows(sql`update patients set search_text = ${`${before!.search_text} ${p.taxId!.toLowerCase()}`} where id = ${p.id}`);
    const migration = readFileSync(new URL('../../../drizzle/0013_patient_field_access.sql', import.meta.url), 'utf8');
    const update = migration.split('--> statement-breakpoint').find((s) => s.includes('UPDATE "patients" SET "search_text"'))!;
    await t.rows(sql.raw(update));
    const [after] = await t.rows<{ search_text: string }>(sql`select search_text from patients where id = ${p.id}`);
    expect(after!.search_text).toBe(before!.search_text);
  });

  it('members who read different fields never share a cached page', async () => {
    const rosa = await therapist(t, 'rosa3@clinica.test', 'Rosa');
    await addMember(t, clinicOwner, clinic.id, rosa, [clinic.roles.find((r) => r.name === 'Recepción')!.id]);
    const P = `/api/v1/workspaces/${clinic.id}/patients?q=vega`;
    const asOwner = json<{ items: Record<string, unknown>[] }>(await t.get(P, { token: clinicOwner.accessToken }));
    expect(asOwner.items[0]).toHaveProperty('motive', 'anxiety');
    const asReception = json<{ items: Record<string, unknown>[] }>(await t.get(P, { token: rosa.accessToken }));
    expect(asReception.items.length).toBe(asOwner.items.length);
    for (const i of asReception.items) expect(i).not.toHaveProperty('motive');
  });
});

describe('an Excel import writes only the fields its importer may write', () => {
  it('Recepción imports names and billing, but a treatment column is refused before anything is imported', async () => {
    const rosa = await therapist(t, 'rosa4@clinica.test', 'Rosa');
    await addMember(t, clinicOwner, clinic.id, rosa, [clinic.roles.find((r) => r.name === 'Recepción')!.id]);
    const file = await xlsx([
      ['Nombre', 'Apellidos', 'Ciudad', 'Motivo de consulta'],
      ['Importado', 'Uno', 'Jaén', 'Ansiedad'],
    ]);
    const refused = await importPatients(t, clinic.id, rosa.accessToken, file, { firstName: 0, lastName: 1, city: 2, motive: 3 }).catch(
      (e: Error) => e.message,
    );
    expect(refused).toMatch(/^commit: .*"code":"access_denied".*Tratamiento/);
    expect(await t.rows(sql`select id from patients where first_name = 'Importado'`)).toEqual([]);
    const { result } = await importPatients(t, clinic.id, rosa.accessToken, file, { firstName: 0, lastName: 1, city: 2 });
    expect(result).toMatchObject({ status: 'done', created: 1 });
  });
});
