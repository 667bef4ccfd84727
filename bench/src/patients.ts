// The patient-list scenario of issue 4: a workspace with 20,000 patients, the list page of 50 with a
// search term, on PostgreSQL; and issue 26's 5,000 on PGlite. Patients are written straight into the
// database (the API would take minutes), with the same accent-free `search_text` the server computes.
import { join } from 'node:path';
import pg from 'pg';
import { normalizeText } from '@divan/core';
import type { Dataset } from './dataset';

const FIRST = [
  'Lucía',
  'María',
  'Paula',
  'Martina',
  'Sofía',
  'Carmen',
  'Julia',
  'Elena',
  'Hugo',
  'Martín',
  'Pablo',
  'Álvaro',
  'Javier',
  'Daniel',
  'Adrián',
  'Diego',
  'Iñigo',
  'Nerea',
  'Ainhoa',
  'Óscar',
];
const LAST = [
  'García',
  'Rodríguez',
  'González',
  'Fernández',
  'López',
  'Martínez',
  'Sánchez',
  'Pérez',
  'Gómez',
  'Martín',
  'Jiménez',
  'Ruiz',
  'Hernández',
  'Díaz',
  'Moreno',
  'Muñoz',
  'Álvarez',
  'Romero',
  'Alonso',
  'Gutiérrez',
  'Navarro',
  'Torres',
  'Domínguez',
  'Vázquez',
  'Ramos',
  'Gil',
  'Ramírez',
  'Serrano',
  'Blanco',
  'Molina',
  'Morales',
  'Suárez',
  'Ortega',
  'Delgado',
  'Castro',
  'Ortiz',
  'Rubio',
  'Marín',
  'Sanz',
  'Núñez',
];
const STATUS = ['active', 'active', 'active', 'paused', 'inactive'] as const;
const MOTIVES = ['anxiety', 'depression', 'mourning', 'self_esteem', 'couple', 'insomnia', 'ocd', 'work_stress'];
const LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

export type PatientsWorkspace = { workspaceId: string; patients: number; seconds: number };

type Query = (text: string, params?: unknown[]) => Promise<unknown>;

/**
 * `count` patients in the bench therapist's workspace, on PostgreSQL while the server runs, or on PGlite
 * with the server stopped (`stopped`: its data dir is then opened here, with the same trigram extension,
 * and closed before the caller starts a server on it again).
 */
/**
 * The database of a dataset as one connection of its own: PostgreSQL through `pg` while the server runs,
 * or PGlite's data dir opened here (with the server's trigram extension) — its server must be stopped,
 * and `close()` must come before a server is started on it again.
 */
export type Sql = {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: R[] }>;
  close(): Promise<void>;
};

export async function openSql(ds: Pick<Dataset, 'databaseUrl' | 'dataDir'>): Promise<Sql> {
  if (ds.databaseUrl) {
    const client = new pg.Client({ connectionString: ds.databaseUrl });
    await client.connect();
    return {
      query: async <R>(text: string, params?: unknown[]) => ({ rows: (await client.query(text, params)).rows as R[] }),
      close: () => client.end(),
    };
  }
  const [{ PGlite }, { pg_trgm }] = await Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite/contrib/pg_trgm')]);
  const db = await PGlite.create(join(ds.dataDir, 'pgdata'), { extensions: { pg_trgm } });
  return { query: <R>(text: string, params?: unknown[]) => db.query<R>(text, params), close: () => db.close() };
}

/**
 * `count` patients in the bench therapist's workspace, on PostgreSQL while the server runs, or on PGlite
 * with the server stopped (`stopped`: its data dir is then opened here, with the same trigram extension,
 * and closed before the caller starts a server on it again).
 */
export async function seedPatients(ds: Dataset, count: number, o: { stopped?: () => Promise<void> } = {}): Promise<PatientsWorkspace> {
  if (!ds.databaseUrl && !o.stopped) throw new Error('on PGlite the server must stop before the bench writes its data dir');
  const started = performance.now();
  const res = await fetch(`${ds.server.url}/api/v1/workspaces`, { headers: { authorization: `Bearer ${ds.session.accessToken}` } });
  const [workspace] = (await res.json()) as { id: string }[];
  if (!workspace) throw new Error(`no workspace for the bench therapist (${res.status})`);
  if (!ds.databaseUrl) await o.stopped!();
  const db = await openSql(ds);
  try {
    await writePatients((text, params) => db.query(text, params), workspace.id, ds.session.userId, count);
  } finally {
    await db.close();
  }
  return { workspaceId: workspace.id, patients: count, seconds: (performance.now() - started) / 1000 };
}

async function writePatients(query: Query, workspaceId: string, userId: string, count: number) {
  for (let from = 0; from < count; from += 1000) {
    const rows: unknown[][] = [];
    for (let i = from; i < Math.min(count, from + 1000); i++) {
      const first = FIRST[i % FIRST.length]!;
      const last = `${LAST[(i * 7) % LAST.length]} ${LAST[(i * 13 + 5) % LAST.length]}`;
      const email = `${normalizeText(first)}.${normalizeText(last).replace(/ /g, '.')}${i}@correo.es`;
      const phone = `6${String(10_000_000 + ((i * 7919) % 89_999_999)).padStart(8, '0')}`;
      const dni = String(10_000_000 + i * 37);
      const taxId = `${dni}${LETTERS[Number(dni) % 23]}`;
      // The tax id is not in the search text (billing data: searched in its own column by those who read it).
      const search = normalizeText([first, last, email, phone].join(' '));
      rows.push([workspaceId, userId, first, last, email, phone, taxId, STATUS[i % STATUS.length], MOTIVES[i % MOTIVES.length], search]);
    }
    const params = rows.flat();
    const values = rows.map((_, r) => `(${Array.from({ length: 10 }, (_, c) => `$${r * 10 + c + 1}`).join(',')})`).join(',');
    await query(
      `insert into patients (workspace_id, created_by, first_name, last_name, email, phone, billing_tax_id, treatment_status, treatment_motive, search_text) values ${values}`,
      params,
    );
  }
  // A live database is vacuumed by autovacuum; measure that steady state.
  await query('vacuum analyze patients');
}
