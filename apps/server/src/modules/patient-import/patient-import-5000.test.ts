import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';
import { dni, importPatients, xlsx } from '../../test/spreadsheets';

/**
 * The issue asks for 5,000 rows in under 10 s. No timing is asserted (machines differ); the
 * duration is printed so it can be reported.
 */
let t: TestApp;
let owner: Therapist;
let ws: Workspace;
const ROWS = 5_000;
const GENDERS = ['Mujer', 'Hombre', 'Otro'];
const MOTIVES = ['Ansiedad', 'Depresión', 'Duelo', 'Autoestima', 'Estrés laboral', 'Pareja'];
/** 0 → 'a', 25 → 'z', 26 → 'ba': a number in letters (base 26). */
const inLetters = (n: number) => [...n.toString(26)].map((d) => String.fromCharCode(97 + parseInt(d, 26))).join('');

beforeAll(async () => {
  t = await createTestApp();
  owner = await therapist(t, 'volumen@clinica.test', 'Vera');
  ws = await createWorkspace(t, owner, 'Clínica Volumen', 'team');
  await t.app.services.workspaces.setPlan(ws.id, { id: 'team', seats: 2 });
});
afterAll(() => t?.close());

describe('import of a large spreadsheet', () => {
  it(`imports ${ROWS.toLocaleString('es-ES')} rows in one go`, async () => {
    const rows = Array.from({ length: ROWS }, (_, i) => [
      // Names are letters only (spec §5): the row's number written in letters keeps each one apart.
      `Nombre ${inLetters(i)}`,
      `Apellido ${inLetters(i)} Prueba`,
      `paciente${i}@correo.es`,
      600_000_000 + i,
      new Date(Date.UTC(1950 + (i % 50), i % 12, 1 + (i % 28))),
      GENDERS[i % 3],
      dni(10_000_000 + i),
      `Calle Mayor ${i}`,
      'Madrid',
      28_000 + (i % 100),
      MOTIVES[i % MOTIVES.length],
    ]);
    const file = await xlsx([
      [
        'Nombre',
        'Apellidos',
        'Email',
        'Teléfono',
        'Fecha de nacimiento',
        'Género',
        'DNI',
        'Dirección',
        'Ciudad',
        'Código postal',
        'Motivo de consulta',
      ],
      ...rows,
    ]);
    const started = performance.now();
    const { result } = await importPatients(t, ws.id, owner.accessToken, file);
    const ms = performance.now() - started;
    console.log(
      `[import-5000] ${ROWS} rows (${(file.length / 1024).toFixed(0)} KB xlsx) uploaded, validated and imported in ${(ms / 1000).toFixed(2)} s on ${t.database}`,
    );
    expect(result).toMatchObject({ status: 'done', total: ROWS, created: ROWS, errors: [] });
    expect(
      json<{ total: number }>(await t.get(`/api/v1/workspaces/${ws.id}/patients?pageSize=1`, { token: owner.accessToken })).total,
    ).toBe(ROWS);
  }, 120_000);
});
