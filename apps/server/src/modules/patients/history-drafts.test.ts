import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { HistoryDraft, HistoryEntry, Workspace } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { withWorkspace, type Therapist } from '../../test/workspace-fixtures';

let t: TestApp;
let owner: Therapist;
let colleague: Therapist;
let reader: Therapist;
let ws: Workspace;
let H: string;
const codeOf = (res: { json(): unknown }) => (res.json() as { code: string }).code;
const drafts = async (who: Therapist) => json<HistoryDraft[]>(await t.get(`${H}/drafts`, { token: who.accessToken }));

beforeAll(async () => {
  t = await createTestApp();
  const set = await withWorkspace(t, 'Equipo Sur', {
    owner: { email: 'elena@equipo.test', firstName: 'Elena' },
    template: 'team',
    members: {
      colleague: { email: 'pablo@equipo.test', firstName: 'Pablo', role: 'Terapeuta' },
      reader: {
        email: 'ines@equipo.test',
        firstName: 'Inés',
        role: {
          name: 'Solo lectura de historia',
          permissions: [
            { action: 'read', subject: 'patient_files' },
            { action: 'read', subject: 'patient_histories' },
          ],
        },
      },
    },
    patient: { firstName: 'Tomás', lastName: 'Gil' },
  });
  ({ owner, ws } = set);
  ({ colleague, reader } = set.members);
  H = `/api/v1/workspaces/${ws.id}/patients/${set.patientId}/history`;
});
afterAll(() => t?.close());

describe('history drafts', () => {
  it('keeps an unsaved entry on the server, encrypted, private to its author, one per author', async () => {
    const first = await t.put(
      `${H}/draft`,
      { title: 'Sesión a medias', date: '23/11', body: '<p>Refiere <em>ansiedad anticipatoria</em></p><script>alert(1)</script>' },
      { token: owner.accessToken },
    );
    expect(first.statusCode, first.body).toBe(200);
    expect(json<HistoryDraft>(first)).toMatchObject({
      entryId: null,
      title: 'Sesión a medias',
      date: '23/11',
      body: '<p>Refiere <em>ansiedad anticipatoria</em></p>',
      private: false,
    });
    // Autosave writes over the same draft.
    await t.put(
      `${H}/draft`,
      {
        title: 'Sesión a medias',
        date: '23/11/2026',
        body: '<p>Refiere <em>ansiedad anticipatoria</em> ante el examen</p>',
        private: true,
      },
      { token: owner.accessToken },
    );
    expect(await drafts(owner)).toEqual([
      expect.objectContaining({ entryId: null, date: '23/11/2026', body: expect.stringContaining('ante el examen'), private: true }),
    ]);
    expect(await drafts(colleague)).toEqual([]);
    const rows = await t.rows<Record<string, unknown>>(sql`select * from history_drafts`);
    expect(rows).toHaveLength(1);
    for (const secret of ['ansiedad', 'Sesión a medias', 'examen']) expect(JSON.stringify(rows)).not.toContain(secret);
  });

  it('answers the permission of the write a draft prepares', async () => {
    expect(await drafts(reader)).toEqual([]);
    expect(codeOf(await t.put(`${H}/draft`, { title: 'x' }, { token: reader.accessToken }))).toBe('access_denied');
    expect(codeOf(await t.del(`${H}/draft`, { token: reader.accessToken }))).toBe('access_denied');
  });

  it('refuses bad input with a Spanish 400', async () => {
    const nul = await t.put(`${H}/draft`, { title: 'a\u0000b' }, { token: owner.accessToken });
    expect(nul.statusCode).toBe(400);
    expect(json<{ message: string }>(nul).message).toMatch(/caracteres no permitidos/);
    expect((await t.put(`${H}/draft`, { date: 'x'.repeat(41) }, { token: owner.accessToken })).statusCode).toBe(400);
  });

  it('is gone once the entry is saved', async () => {
    const entry = json<HistoryEntry>(
      await t.post(H, { title: 'Sesión 1', date: '2026-11-23', body: '<p>Ansiedad</p>' }, { token: owner.accessToken }),
    );
    expect(await drafts(owner)).toEqual([]);
    // Editing: a draft per entry, beside the new entry's.
    await t.put(`${H}/draft`, { title: 'Sesión 2' }, { token: owner.accessToken });
    const edit = await t.put(
      `${H}/${entry.id}/draft`,
      { title: 'Sesión 1', date: '23/11/2026', body: '<p>Ansiedad y culpa</p>' },
      { token: colleague.accessToken },
    );
    expect(json<HistoryDraft>(edit)).toMatchObject({ entryId: entry.id });
    expect((await drafts(colleague)).map((d) => d.entryId)).toEqual([entry.id]);
    await t.put(
      `${H}/${entry.id}`,
      { title: 'Sesión 1', date: '2026-11-23', body: '<p>Ansiedad y culpa</p>' },
      { token: colleague.accessToken },
    );
    expect(await drafts(colleague)).toEqual([]);
    expect((await drafts(owner)).map((d) => d.entryId)).toEqual([null]);
  });

  it('can be discarded, and discarding twice is no error', async () => {
    expect((await t.del(`${H}/draft`, { token: owner.accessToken })).statusCode).toBe(204);
    expect(await drafts(owner)).toEqual([]);
    expect((await t.del(`${H}/draft`, { token: owner.accessToken })).statusCode).toBe(204);
  });

  it('cannot draft an entry the caller cannot see, and goes with a deleted entry', async () => {
    const mine = json<HistoryEntry>(
      await t.post(H, { title: 'Privada', date: '2026-11-23', body: '', private: true }, { token: owner.accessToken }),
    );
    expect(codeOf(await t.put(`${H}/${mine.id}/draft`, { title: 'x' }, { token: colleague.accessToken }))).toBe('history_not_found');
    await t.put(`${H}/${mine.id}/draft`, { title: 'Privada (editando)' }, { token: owner.accessToken });
    expect((await t.del(`${H}/${mine.id}`, { token: owner.accessToken })).statusCode).toBe(204);
    expect(await drafts(owner)).toEqual([]);
    expect(await t.rows(sql`select id from history_drafts where entry_id = ${mine.id}`)).toEqual([]);
  });

  it('is swept by the hourly sweep after 30 days untouched', async () => {
    await t.put(`${H}/draft`, { title: 'Olvidado' }, { token: owner.accessToken });
    await t.put(`${H}/draft`, { title: 'Reciente' }, { token: colleague.accessToken });
    await t.rows(sql`update history_drafts set updated_at = now() - interval '31 days' where author_id = ${owner.userId}`);
    await t.app.services.jobs.runSweeps();
    expect(await drafts(owner)).toEqual([]);
    expect((await drafts(colleague)).map((d) => d.title)).toEqual(['Reciente']);
  });
});
