import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { HistoryEntry, Patient, Workspace } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { withWorkspace, type Therapist } from '../../test/workspace-fixtures';
import { multipart } from '../../test/images';
import { readFixture } from '../../../../../fixtures';

let t: TestApp;
let owner: Therapist;
let colleague: Therapist;
let ws: Workspace;
let H: string;
const codeOf = (res: { json(): unknown }) => (res.json() as { code: string }).code;

beforeAll(async () => {
  t = await createTestApp();
  const set = await withWorkspace(t, 'Equipo Norte', {
    owner: { email: 'luis@equipo.test', firstName: 'Luis' },
    template: 'team',
    members: { colleague: { email: 'marta@equipo.test', firstName: 'Marta', role: 'Terapeuta' } },
    patient: { firstName: 'Irene', lastName: 'Campos' },
  });
  ({ owner, ws } = set);
  colleague = set.members.colleague;
  H = `/api/v1/workspaces/${ws.id}/patients/${set.patientId}/history`;
});
afterAll(() => t?.close());

describe('clinical history', () => {
  it('stores entries encrypted: the database holds no clear text', async () => {
    const body = '<p>Refiere <strong>insomnio de conciliación</strong> desde el despido.</p><script>alert(1)</script>';
    const res = await t.post(H, { title: 'Primera sesión: insomnio', date: '2026-11-20', body }, { token: owner.accessToken });
    expect(res.statusCode, res.body).toBe(201);
    const entry = json<HistoryEntry>(res);
    expect(entry).toMatchObject({ title: 'Primera sesión: insomnio', date: '2026-11-20', private: false, author: { name: 'Luis' } });
    expect(entry.body).toBe('<p>Refiere <strong>insomnio de conciliación</strong> desde el despido.</p>');
    // Read the database as an attacker with a dump would.
    const rows = await t.rows<Record<string, unknown>>(sql`select * from history_entries`);
    const dump = JSON.stringify(rows);
    for (const secret of ['insomnio', 'Primera sesión', 'despido', 'conciliación']) expect(dump).not.toContain(secret);
    expect(String(rows[0]!.body_enc)).toMatch(/^v\d:/);
  });

  it('shows a private entry to its author only', async () => {
    await t.post(
      H,
      { title: 'Nota privada', date: '2026-11-21', body: '<p>Contratransferencia</p>', private: true },
      { token: owner.accessToken },
    );
    const mine = json<HistoryEntry[]>(await t.get(H, { token: owner.accessToken }));
    const theirs = json<HistoryEntry[]>(await t.get(H, { token: colleague.accessToken }));
    expect(mine.map((e) => e.title)).toEqual(['Nota privada', 'Primera sesión: insomnio']);
    expect(theirs.map((e) => e.title)).toEqual(['Primera sesión: insomnio']);
    // The file's counts follow the same visibility as the list.
    const countFor = async (token: string) => json<Patient>(await t.get(H.replace(/\/history$/, ''), { token })).counts.historyEntries;
    expect([await countFor(owner.accessToken), await countFor(colleague.accessToken)]).toEqual([2, 1]);
    const privateId = mine[0]!.id;
    expect(codeOf(await t.put(`${H}/${privateId}`, { title: 'x', date: '2026-11-21', body: '' }, { token: colleague.accessToken }))).toBe(
      'history_not_found',
    );
    expect(codeOf(await t.get(`${H}/${privateId}/revisions`, { token: colleague.accessToken }))).toBe('history_not_found');
  });

  it('keeps every earlier version when an entry is edited', async () => {
    const [, first] = json<HistoryEntry[]>(await t.get(H, { token: owner.accessToken }));
    const edited = json<HistoryEntry>(
      await t.put(
        `${H}/${first!.id}`,
        { title: 'Primera sesión', date: '2026-11-20', body: '<p>Versión corregida</p>' },
        { token: colleague.accessToken },
      ),
    );
    expect(edited).toMatchObject({ title: 'Primera sesión', revisions: 1 });
    const revs = json<{ title: string; body: string; editor: { name: string } }[]>(
      await t.get(`${H}/${first!.id}/revisions`, { token: owner.accessToken }),
    );
    expect(revs).toEqual([expect.objectContaining({ title: 'Primera sesión: insomnio', editor: { id: colleague.userId, name: 'Marta' } })]);
    expect(revs[0]!.body).toContain('insomnio de conciliación');
    const dump = JSON.stringify(await t.rows(sql`select * from history_revisions`));
    expect(dump).not.toContain('insomnio');
  });

  it('imports a Word document as one entry, keeping its formatting', async () => {
    const data = readFixture('historia-clinica.docx');
    const { payload, headers } = multipart(
      'file',
      'historia-clinica.docx',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      data,
    );
    const res = await t.app.inject({
      method: 'POST',
      url: `${H}/import-docx`,
      payload,
      headers: { ...headers, authorization: `Bearer ${owner.accessToken}` },
    });
    expect(res.statusCode, res.body).toBe(201);
    const entry = json<HistoryEntry>(res);
    expect(entry.title.length).toBeGreaterThan(0);
    expect(entry.body).not.toContain(`>${entry.title}<`);
    expect(entry.body).toMatch(/<h[1-4]>/);
    expect(entry.body).toContain('<strong>');
    expect(entry.body).toMatch(/<(ul|ol)>/);
    expect(entry.body).toContain('<table>');
  });

  it('refuses a file that is not a Word document', async () => {
    const { payload, headers } = multipart('file', 'x.docx', 'application/octet-stream', readFixture('no-es-excel.xlsx'));
    const res = await t.app.inject({
      method: 'POST',
      url: `${H}/import-docx`,
      payload,
      headers: { ...headers, authorization: `Bearer ${owner.accessToken}` },
    });
    expect({ s: res.statusCode, c: codeOf(res) }).toEqual({ s: 400, c: 'invalid_docx_file' });
  });

  it('deleting an entry keeps it as a tombstone with its revisions, and writes an audit event', async () => {
    const entry = json<HistoryEntry>(
      await t.post(H, { title: 'Sesión 3: duelo', date: '2026-11-22', body: '<p>Habla de su padre</p>' }, { token: owner.accessToken }),
    );
    await t.put(
      `${H}/${entry.id}`,
      { title: 'Sesión 3: duelo', date: '2026-11-22', body: '<p>Habla de su padre (revisado)</p>' },
      { token: owner.accessToken },
    );
    const countFor = async () =>
      json<Patient>(await t.get(H.replace(/\/history$/, ''), { token: owner.accessToken })).counts.historyEntries;
    const before = await countFor();
    expect((await t.del(`${H}/${entry.id}`, { token: colleague.accessToken })).statusCode).toBe(204);

    // Gone for every list, count and read…
    expect(json<HistoryEntry[]>(await t.get(H, { token: owner.accessToken })).map((e) => e.id)).not.toContain(entry.id);
    expect(await countFor()).toBe(Number(before) - 1);
    expect(codeOf(await t.get(`${H}/${entry.id}/revisions`, { token: owner.accessToken }))).toBe('history_not_found');
    expect(codeOf(await t.put(`${H}/${entry.id}`, { title: 'x', date: '2026-11-22', body: '' }, { token: owner.accessToken }))).toBe(
      'history_not_found',
    );
    expect(codeOf(await t.del(`${H}/${entry.id}`, { token: owner.accessToken }))).toBe('history_not_found');
    const exported = json<{ history: { title: string }[] }>(
      await t.get(H.replace(/\/history$/, '/export.json'), { token: owner.accessToken }),
    );
    expect(exported.history.map((e) => e.title)).not.toContain('Sesión 3: duelo');
    expect(exported.history.length).toBeGreaterThan(0);
    // …but the entry and its revisions are still in the database, marked with who deleted it.
    const [row] = await t.rows<{ deleted_at: Date | null; deleted_by: string | null }>(
      sql`select deleted_at, deleted_by from history_entries where id = ${entry.id}`,
    );
    expect(row?.deleted_at).toBeTruthy();
    expect(row?.deleted_by).toBe(colleague.userId);
    expect(await t.rows(sql`select id from history_revisions where entry_id = ${entry.id}`)).toHaveLength(1);

    // The audit log names who, which entry and whose, never the clinical text.
    const events = json<{ action: string; target: string; actor: { name: string }; details: Record<string, unknown> }[]>(
      await t.get(`/api/v1/workspaces/${ws.id}/audit-events`, { token: owner.accessToken }),
    );
    const ev = events.find((e) => e.action === 'history_entry.deleted' && e.target === entry.id);
    expect(ev).toMatchObject({ actor: { name: 'Marta' }, details: { patientName: 'Irene Campos', entryDate: '2026-11-22' } });
    expect(JSON.stringify(ev)).not.toContain('duelo');
  });

  it('erasing the patient past retention removes tombstoned entries, their revisions and drafts', async () => {
    const p = json<Patient>(await t.post(`/api/v1/workspaces/${ws.id}/patients`, { firstName: 'Antigua' }, { token: owner.accessToken }));
    const path = `/api/v1/workspaces/${ws.id}/patients/${p.id}/history`;
    const entry = json<HistoryEntry>(await t.post(path, { title: 'Vieja', date: '2019-01-10', body: '' }, { token: owner.accessToken }));
    await t.put(`${path}/${entry.id}`, { title: 'Vieja 2', date: '2019-01-10', body: '' }, { token: owner.accessToken });
    await t.put(`${path}/draft`, { title: 'A medias' }, { token: owner.accessToken });
    expect((await t.del(`${path}/${entry.id}`, { token: owner.accessToken })).statusCode).toBe(204);
    await t.rows(
      sql`update patients set last_activity_at = now() - interval '6 years', treatment_end_date = (now() - interval '6 years')::date where id = ${p.id}`,
    );
    expect(json(await t.del(`/api/v1/workspaces/${ws.id}/patients/${p.id}`, { token: owner.accessToken }))).toMatchObject({
      result: 'deleted',
    });
    expect(await t.rows(sql`select id from history_entries where patient_id = ${p.id}`)).toEqual([]);
    expect(await t.rows(sql`select id from history_revisions where entry_id = ${entry.id}`)).toEqual([]);
    expect(await t.rows(sql`select id from history_drafts where patient_id = ${p.id}`)).toEqual([]);
    // The audit event of the delete outlives the patient.
    expect(await t.rows(sql`select id from audit_events where target = ${entry.id}`)).toHaveLength(1);
  });

  it('writes every read of clinical data to an access log that administrators read', async () => {
    const log = json<{ user: { name: string }; patient: { name: string }; action: string }[]>(
      await t.get(`/api/v1/workspaces/${ws.id}/clinical-access-log`, { token: owner.accessToken }),
    );
    expect(
      log
        .filter((l) => l.action === 'history.read')
        .map((l) => l.user.name)
        .sort(),
    ).toEqual(['Luis', 'Luis', 'Luis', 'Luis', 'Marta']);
    expect(log[0]!.patient.name).toBe('Irene Campos');
    expect(codeOf(await t.get(`/api/v1/workspaces/${ws.id}/clinical-access-log`, { token: colleague.accessToken }))).toBe('access_denied');
  });
});
