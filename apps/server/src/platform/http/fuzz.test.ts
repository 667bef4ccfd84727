import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { addMember, createRole, createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';
import { multipart, png } from '../../test/images';
import { XLSX_TYPE, xlsx } from '../../test/spreadsheets';
import {
  casesFor,
  nullCasesFor,
  operationsOf,
  validCase,
  type FuzzCase,
  type OpenApiDoc,
  type Operation,
} from '../../test/fuzz/fuzz-cases';
import { englishIn } from '../../test/fuzz/spanish';

/**
 * The project's own fuzz test, generated from the OpenAPI document the server serves: every operation,
 * a new one included, gets malformed JSON, wrong types, huge strings, NUL, impossible dates, numbers out
 * of range, unknown enum values, bad UUIDs and broken multipart, each with the rest of the request valid
 * (real ids in the path, a body built from the schema) and an administrator's token. No answer may be a
 * 5xx, and every 4xx is `{code, message}` in Spanish. FUZZ_SEED picks another deterministic sample.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_241_123);
const MAX_CASES_PER_OPERATION = Number(process.env.FUZZ_MAX ?? 22);

let t: TestApp;
let owner: Therapist;
let doc: OpenApiDoc;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  owner = await therapist(t, 'fuzz@divan.test', 'Fuzz');
  const colleague = await therapist(t, 'colega@divan.test', 'Colega');
  const ws = await createWorkspace(t, owner, 'Consulta Fuzz');
  const W = `/api/v1/workspaces/${ws.id}`;
  const token = owner.accessToken;
  const upload = async (url: string, field: string, name: string, type: string, data: Buffer, method: 'POST' | 'PUT' = 'POST') => {
    const { payload, headers } = multipart(field, name, type, data);
    const res = await t.app.inject({ method, url, payload, headers: { ...headers, authorization: `Bearer ${token}` } });
    if (res.statusCode >= 300) throw new Error(`${url}: ${res.body}`);
    return json<{ id: string; importId: string; pictureUrl: string }>(res);
  };
  const role = await createRole(t, owner, ws.id, 'Recepción fuzz', [{ action: 'read', subject: 'patient_files' }]);
  const { memberId } = await addMember(t, owner, ws.id, colleague, [role.id]);
  const invitation = json<{ id: string }>(
    await t.post(`${W}/invitations`, { email: 'pendiente@divan.test', roleIds: [role.id] }, { token }),
  );
  const patient = json<{ id: string }>(await t.post(`${W}/patients`, { firstName: 'Sara', lastName: 'Fuzz' }, { token }));
  const P = `${W}/patients/${patient.id}`;
  const entry = json<{ id: string }>(await t.post(`${P}/history`, { title: 'Primera sesión', date: '2024-05-10' }, { token }));
  const document = await upload(`${P}/documents`, 'file', 'nota.txt', 'text/plain', Buffer.from('Nota de prueba\n'));
  const imported = await upload(`${W}/patient-imports`, 'file', 'p.xlsx', XLSX_TYPE, await xlsx([['Nombre'], ['Ana']]));
  const profile = await upload('/api/v1/me/picture', 'file', 'yo.png', 'image/png', png(8, 8), 'PUT');
  Object.assign(ids, {
    workspaceId: ws.id,
    patientId: patient.id,
    entryId: entry.id,
    documentId: document.id,
    roleId: role.id,
    memberId,
    therapistId: owner.userId,
    invitationId: invitation.id,
    importId: imported.importId,
    id: profile.pictureUrl?.split('/').pop() ?? '',
  });
  doc = json<OpenApiDoc>(await t.get('/api/v1/openapi.json'));
}, 60_000);
afterAll(() => t?.close());

const idFor = (name: string) => ids[name] ?? ids[name.replace(/Ids?$/, 'Id')];

function headersFor(op: Operation): Record<string, string> {
  const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
  if (schemes.includes('bearerAuth')) return { authorization: `Bearer ${owner.accessToken}` };
  // A refresh route gets a token that is not one: a case that passed validation must not end the session.
  if (schemes.includes('refreshToken')) return { authorization: 'Bearer no-es-un-token-de-refresco' };
  return {};
}

/** What is wrong with an answer, or nothing: a 5xx, a 4xx without `{code, message}`, an English message. */
function problemWith(c: FuzzCase, status: number, body: string): string | undefined {
  if (status >= 500) return `${status} ${body.slice(0, 200)}`;
  if (status < 400) return undefined;
  let parsed: { code?: unknown; message?: unknown; fields?: { message?: string }[] };
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    return `${status} without a JSON body: ${body.slice(0, 120)}`;
  }
  if (typeof parsed.code !== 'string' || !/^[a-z_]+$/.test(parsed.code) || typeof parsed.message !== 'string' || !parsed.message)
    return `${status} without {code, message}: ${body.slice(0, 200)}`;
  for (const text of [parsed.message, ...(parsed.fields ?? []).map((f) => f.message ?? '')]) {
    const word = englishIn(text);
    if (word) return `${status} ${parsed.code}: English ("${word}") in "${text.slice(0, 160)}"`;
  }
  return undefined;
}

describe('fuzz over every operation of the OpenAPI document', () => {
  it('null for every optional body field (each alone, then all at once) is taken as absent or a Spanish 400, never a 5xx', async () => {
    const ops = operationsOf(doc).sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    const problems: string[] = [];
    let sent = 0;
    for (const op of ops)
      for (const c of nullCasesFor(op, { idFor, headers: headersFor(op) })) {
        const res = await t.app.inject({ method: c.method as 'GET', url: c.url, headers: c.headers, payload: c.payload });
        sent++;
        const problem = problemWith(c, res.statusCode, res.body);
        if (problem) problems.push(`${op.operationId ?? `${op.method} ${op.path}`} · ${c.what}: ${problem}`);
      }
    expect(sent).toBeGreaterThan(100);
    expect(problems).toEqual([]);
  }, 120_000);

  it('never answers 5xx, and every 4xx is a Spanish {code, message}', async () => {
    // Deletions last, so a case that happens to succeed cannot take a fixture away from the others.
    const ops = operationsOf(doc).sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    expect(ops.length).toBeGreaterThan(50);
    const problems: string[] = [];
    let sent = 0;
    for (const op of ops) {
      for (const c of casesFor(op, { idFor, headers: headersFor(op) }, { seed: SEED, max: MAX_CASES_PER_OPERATION })) {
        const res = await t.app.inject({
          method: c.method as 'GET',
          url: c.url,
          headers: c.headers,
          ...(c.payload !== undefined ? { payload: c.payload } : {}),
        });
        sent++;
        const problem = problemWith(c, res.statusCode, res.body);
        if (problem) problems.push(`${op.operationId ?? `${op.method} ${op.path}`} · ${c.what}: ${problem}`);
      }
    }
    expect(sent).toBeGreaterThan(ops.length * 5);
    // What the cases stored (a 100,000-letter note, a cleared field) must not break a read afterwards:
    // every GET again, valid this time (a huge word once kept the PDF export busy for minutes).
    for (const op of ops.filter((o) => o.method === 'GET')) {
      const c = validCase(op, { idFor, headers: headersFor(op) });
      const started = Date.now();
      const res = await t.app.inject({ method: 'GET', url: c.url, headers: c.headers });
      const problem =
        problemWith(c, res.statusCode, res.body) ?? (Date.now() - started > 10_000 ? `took ${Date.now() - started} ms` : undefined);
      if (problem) problems.push(`${op.operationId ?? op.path} · read after the fuzz: ${problem}`);
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
