import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { MeasureAdministration, MeasureTrend, PatientExport, Workspace } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { withWorkspace, type Therapist } from '../../test/workspace-fixtures';

let t: TestApp;
let owner: Therapist;
let reception: Therapist;
let ws: Workspace;
let patientId: string;
let M: string;
const PATIENT_EMAIL = 'irene.campos@correo.test';
const codeOf = (res: { json(): unknown }) => (res.json() as { code: string }).code;
const tokenIn = (text: string) => /\/p\/cuestionario\/([A-Za-z0-9_-]+)/.exec(text)?.[1];
const P = (token: string) => `/api/v1/public/measures/${token}`;

async function send(measure = 'phq9') {
  const res = await t.post(`${M}/send`, { measure }, { token: owner.accessToken });
  expect(res.statusCode, res.body).toBe(201);
  const sent = json<MeasureAdministration & { link: string }>(res);
  return { sent, token: tokenIn((await t.lastMail(PATIENT_EMAIL)).text)! };
}

beforeAll(async () => {
  t = await createTestApp();
  const set = await withWorkspace(t, 'Centro Medidas', {
    owner: { email: 'luis@medidas.test', firstName: 'Luis' },
    template: 'clinic',
    members: { reception: { email: 'rosa@medidas.test', firstName: 'Rosa', role: 'Recepción' } },
    patient: { firstName: 'Irene', lastName: 'Campos', email: PATIENT_EMAIL },
  });
  ({ owner, ws, patientId } = set);
  reception = set.members.reception;
  M = `/api/v1/workspaces/${ws.id}/patients/${patientId}/measures`;
});
afterAll(() => t?.close());

describe('outcome measures', () => {
  it('sends PHQ-9 by a mailed single-use link; a partial answer is refused; the full one is scored and encrypted', async () => {
    const { sent, token } = await send();
    expect(sent).toMatchObject({ measure: 'phq9', status: 'sent', mode: 'link', scores: null, therapist: { name: 'Luis' } });
    expect(sent.link).toContain(`/p/cuestionario/${token}`);
    expect(new Date(sent.expiresAt!).getTime() - new Date(sent.sentAt).getTime()).toBe(7 * 86_400_000);
    expect(json(await t.get(P(token)))).toMatchObject({ measure: 'phq9', workspaceName: 'Centro Medidas' });

    const partial = await t.post(`${P(token)}/answers`, { answers: [1, 2, 1, 2, 1, 1, 2, 1] });
    expect(partial.statusCode).toBe(400);
    expect(partial.json()).toMatchObject({
      code: 'measure_incomplete',
      message: 'Responde todas las preguntas antes de enviar el cuestionario.',
      fields: [{ path: 'answers.8', message: 'Responde la pregunta 9' }],
    });
    const withNull = await t.post(`${P(token)}/answers`, { answers: [1, 2, null, 2, 1, 1, 2, 1, 0] });
    expect([withNull.statusCode, codeOf(withNull)]).toEqual([400, 'measure_incomplete']);
    expect(codeOf(await t.post(`${P(token)}/answers`, { answers: [1, 2, 1, 2, 1, 1, 2, 1, 4] }))).toBe('measure_incomplete');

    const done = await t.post(`${P(token)}/answers`, { answers: [1, 2, 1, 2, 1, 1, 2, 1, 0] });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ completed: true, crisisLine: false });
    // Used: the link is refused, in Spanish.
    const again = await t.post(`${P(token)}/answers`, { answers: [0, 0, 0, 0, 0, 0, 0, 0, 0] });
    expect([again.statusCode, codeOf(again)]).toEqual([409, 'measure_already_answered']);
    expect(codeOf(await t.get(P(token)))).toBe('measure_already_answered');

    const [latest] = json<MeasureAdministration[]>(await t.get(M, { token: owner.accessToken }));
    expect(latest).toMatchObject({ id: sent.id, status: 'completed', answers: [1, 2, 1, 2, 1, 1, 2, 1, 0], risk: { flagged: false } });
    expect(latest!.scores).toEqual([{ key: 'total', num: 11, den: 1, value: 11, band: 'Moderada', level: 2, clinical: true }]);

    const [row] = await t.rows<{ result_enc: string; token_hash: string }>(
      sql`select result_enc, token_hash from measure_administrations where id = ${sent.id}`,
    );
    expect(row!.result_enc).toMatch(/^v\d:/);
    expect(row!.result_enc).not.toContain('1,2,1,2');
    expect(row!.token_hash).not.toBe(token);
    // Every read of results is in the clinical access log.
    const log = await t.rows<{ action: string }>(sql`select action from clinical_access_log where patient_id = ${patientId}`);
    expect(log.map((l) => l.action)).toContain('measures.read');
  });

  it('PHQ-9 item 9 above 0: the therapist is mailed at once and sees the flag; the patient is told of 024 only', async () => {
    const { sent, token } = await send();
    const res = await t.post(`${P(token)}/answers`, { answers: [0, 1, 0, 1, 0, 1, 0, 0, 1] });
    expect(res.json()).toEqual({ completed: true, crisisLine: true });
    const mail = await t.lastMail('luis@medidas.test');
    expect(mail.subject).toBe('Aviso de riesgo en un cuestionario de Irene Campos');
    // No answer or score leaves the database in the mail.
    expect(mail.text).not.toMatch(/\b4\b.*puntos|Moderada|Mínima/);
    const flagged = json<MeasureAdministration[]>(await t.get(M, { token: owner.accessToken })).find((a) => a.id === sent.id)!;
    expect(flagged.risk).toEqual({ flagged: true, items: [9], reviewedAt: null });
    const reviewed = json<MeasureAdministration>(await t.post(`${M}/${sent.id}/review`, {}, { token: owner.accessToken }));
    expect(reviewed.risk.reviewedAt).toEqual(expect.any(String));
  });

  it('administered in session; the trend classifies each point against the first by Jacobson–Truax', async () => {
    const give = async (measure: string, answers: number[]) => {
      const res = await t.post(`${M}/administer`, { measure, answers }, { token: owner.accessToken });
      expect(res.statusCode, res.body).toBe(201);
      return json<MeasureAdministration>(res);
    };
    const first = await give('gad7', [2, 2, 2, 2, 1, 1, 1]); // 11
    expect(first).toMatchObject({
      mode: 'session',
      status: 'completed',
      scores: [expect.objectContaining({ value: 11, band: 'Moderada' })],
    });
    await give('gad7', [2, 2, 1, 1, 1, 1, 0]); // 8: −3, no reliable change
    await give('gad7', [1, 1, 1, 1, 1, 1, 0]); // 6: −5 and below 10 → recovered
    expect(codeOf(await t.post(`${M}/administer`, { measure: 'gad7', answers: [1, 1] }, { token: owner.accessToken }))).toBe(
      'measure_incomplete',
    );
    const trend = json<MeasureTrend>(await t.get(`${M}/trend`, { token: owner.accessToken }));
    const gad = trend.find((l) => l.measure === 'gad7')!;
    expect(gad.points.map((p) => [p.value, p.band, p.clinical, p.change])).toEqual([
      [11, 'Moderada', true, null],
      [8, 'Leve', false, 'no_change'],
      [6, 'Leve', false, 'recovered'],
    ]);
    expect(gad.classification).toBe('recovered');
    // PHQ-9: 11 then 4 (the risk one): −7, from clinical to not.
    const phq = trend.find((l) => l.measure === 'phq9')!;
    expect(phq.points.map((p) => p.value)).toEqual([11, 4]);
    expect(phq.classification).toBe('recovered');
    // DASS-21: one line per subscale.
    await give('dass21', Array(21).fill(1));
    const dass = json<MeasureTrend>(await t.get(`${M}/trend`, { token: owner.accessToken })).filter((l) => l.measure === 'dass21');
    expect(dass.map((l) => [l.scale, l.points[0]!.value])).toEqual([
      ['depression', 14],
      ['anxiety', 14],
      ['stress', 14],
    ]);
  });

  it('an expired or cancelled link is refused; the day-2 reminder is mailed once', async () => {
    const { sent, token } = await send('who5');
    await t.rows(sql`update measure_administrations set expires_at = now() - interval '1 minute' where id = ${sent.id}`);
    const expired = await t.get(P(token));
    expect([expired.statusCode, codeOf(expired)]).toEqual([410, 'measure_link_expired']);
    expect(codeOf(await t.post(`${P(token)}/answers`, { answers: [5, 5, 5, 5, 5] }))).toBe('measure_link_expired');
    const listed = json<MeasureAdministration[]>(await t.get(M, { token: owner.accessToken })).find((a) => a.id === sent.id)!;
    expect(listed.status).toBe('expired');

    const second = await send('core10');
    const cancelled = await t.post(`${M}/${second.sent.id}/cancel`, {}, { token: owner.accessToken });
    expect(json<MeasureAdministration>(cancelled).status).toBe('cancelled');
    expect(codeOf(await t.get(P(second.token)))).toBe('measure_link_invalid');
    expect(codeOf(await t.post(`${M}/${second.sent.id}/cancel`, {}, { token: owner.accessToken }))).toBe('measure_not_pending');
    expect(codeOf(await t.get(P('x'.repeat(43))))).toBe('measure_link_invalid');

    const third = await send('coreom');
    await t.rows(sql`update measure_administrations set sent_at = now() - interval '2 days 1 hour' where id = ${third.sent.id}`);
    const before = (await t.app.services.mailer.list(PATIENT_EMAIL, 50)).length;
    await t.app.services.jobs.runSweeps();
    await t.app.services.jobs.runSweeps();
    const mails = await t.app.services.mailer.list(PATIENT_EMAIL, 50);
    expect(mails.length).toBe(before + 1);
    expect(mails[0]!.subject).toBe('Recordatorio: Centro Medidas te pide responder un cuestionario');
    expect(tokenIn(mails[0]!.text)).toBe(third.token);
    // The swept expiry is stored too.
    const [w] = await t.rows<{ status: string }>(sql`select status from measure_administrations where id = ${sent.id}`);
    expect(w!.status).toBe('expired');
  });

  it('Recepción reads and sends none: the clinical history permission guards every route', async () => {
    const token = reception.accessToken;
    for (const res of [
      await t.get(M, { token }),
      await t.get(`${M}/trend`, { token }),
      await t.post(`${M}/send`, { measure: 'phq9' }, { token }),
      await t.post(`${M}/administer`, { measure: 'gad7', answers: [0, 0, 0, 0, 0, 0, 0] }, { token }),
    ])
      expect(res.statusCode).toBe(403);
  });

  it("the patient's export carries the completed measures with their scores", async () => {
    const res = await t.get(`/api/v1/workspaces/${ws.id}/patients/${patientId}/export.json`, { token: owner.accessToken });
    expect(res.statusCode, res.body).toBe(200);
    const exported = json<PatientExport>(res);
    expect(exported.measures?.length).toBeGreaterThanOrEqual(5);
    expect(exported.measures![0]).toMatchObject({ measure: 'phq9', status: 'completed' });
    const byReception = json<PatientExport>(
      await t.get(`/api/v1/workspaces/${ws.id}/patients/${patientId}/export.json`, { token: reception.accessToken }),
    );
    expect(byReception.measures).toBeNull();
  });
});
