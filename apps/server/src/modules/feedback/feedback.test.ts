import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { FEEDBACK_PER_HOUR, feedbackMessages, type FeedbackReceipt } from '@divan/core';
import { ConfigError, loadConfig } from '../../platform/config';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { therapist, type Therapist } from '../../test/workspace-fixtures';

const OPERATOR = 'soporte@divan.test';
const F = '/api/v1/me/feedback';
const codeOf = (res: { json(): unknown }) => (res.json() as { code: string }).code;
type Stored = { user_id: string; message: string; page: string | null; user_agent: string | null };

let t: TestApp;
/** The same product without OPERATOR_EMAIL. */
let bare: TestApp;
let lucia: Therapist;
let pablo: Therapist;

beforeAll(async () => {
  [t, bare] = await Promise.all([createTestApp({ operatorEmail: OPERATOR }), createTestApp()]);
  lucia = await therapist(t, 'lucia@ayuda.test', 'Lucía');
  await t.patch('/api/v1/me', { lastName: 'Gómez' }, { token: lucia.accessToken });
  pablo = await therapist(bare, 'pablo@ayuda.test', 'Pablo');
}, 60_000);
afterAll(async () => {
  await Promise.all([t?.close(), bare?.close()]);
});

const stored = (app: TestApp, id: string) =>
  app.rows<Stored>(sql`select user_id, message, page, user_agent from feedback where id = ${id}`);
const feedbackMails = (app: TestApp) =>
  app.rows<{ key: string; purpose: string }>(sql`select key, purpose from mail_outbox where purpose = 'feedback'`);

describe('feedback: GET /support', () => {
  it('answers the operator’s address, or null when OPERATOR_EMAIL is unset', async () => {
    expect(json(await t.get('/api/v1/support', { token: lucia.accessToken }))).toEqual({ email: OPERATOR });
    expect(json(await bare.get('/api/v1/support', { token: pablo.accessToken }))).toEqual({ email: null });
  });

  it('asks for an account: 401 without a token', async () => {
    for (const res of [await t.get('/api/v1/support'), await t.post(F, { message: 'Un comentario sin cuenta' })])
      expect([res.statusCode, codeOf(res)]).toEqual([401, 'invalid_access_token']);
  });
});

describe('feedback: POST /me/feedback', () => {
  it('keeps the comment trimmed, with the page and the browser (cut to 300), and mails it to the operator in the same transaction', async () => {
    const res = await t.post(
      F,
      { message: '  El calendario <b>no</b> muestra los festivos.\n\nGracias.  ', page: '/settings/help' },
      { token: lucia.accessToken, headers: { 'user-agent': `Mozilla/5.0 ${'x'.repeat(400)}` } },
    );
    expect(res.statusCode, res.body).toBe(201);
    const { id } = json<FeedbackReceipt>(res);
    const [row] = await stored(t, id);
    expect(row).toMatchObject({
      user_id: lucia.userId,
      message: 'El calendario <b>no</b> muestra los festivos.\n\nGracias.',
      page: '/settings/help',
    });
    expect(row!.user_agent).toHaveLength(300);

    expect(await feedbackMails(t)).toEqual([{ key: `feedback:${id}`, purpose: 'feedback' }]);
    const mail = (await t.lastMail(OPERATOR)) as Awaited<ReturnType<TestApp['lastMail']>> & { replyTo?: unknown };
    expect(mail.subject).toBe('Comentario de Lucía Gómez en Diván');
    expect(mail.replyTo).toEqual({ name: 'Lucía Gómez', address: 'lucia@ayuda.test' });
    expect(mail.text).toContain('El calendario <b>no</b> muestra los festivos.');
    expect(mail.text).toContain('De: Lucía Gómez <lucia@ayuda.test>');
    expect(mail.text).toContain('Desde: /settings/help');
    // The therapist's text is text in the HTML part, never markup.
    expect(mail.html).toContain('&#60;b&#62;no&#60;/b&#62;');
    expect(mail.html).not.toContain('<b>no</b>');
  });

  it('a question about the Team plan (topic team_plan) is mailed with its own subject and kept marked as such', async () => {
    // Her own account: the others' hourly budget stays theirs.
    const nora = await therapist(t, 'nora@ayuda.test', 'Nora');
    const message = 'Consulta del plan Team para «Centro Nora».\nTerapeutas: 6\n\nTrabajamos en dos sedes.';
    const res = await t.post(F, { message, page: '/plans', topic: 'team_plan' }, { token: nora.accessToken });
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await stored(t, json<FeedbackReceipt>(res).id);
    expect(row).toMatchObject({ user_id: nora.userId, message: `[Consulta del plan Team]\n${message}`, page: '/plans' });
    const mail = (await t.lastMail(OPERATOR)) as Awaited<ReturnType<TestApp['lastMail']>> & { replyTo?: unknown };
    expect(mail.subject).toBe('Consulta del plan Team');
    expect(mail.replyTo).toEqual({ name: 'Nora', address: 'nora@ayuda.test' });
    // The operator reads the therapist's words, not the stored marker.
    expect(mail.text).toContain('Terapeutas: 6');
    expect(mail.text).toContain('Trabajamos en dos sedes.');
    expect(mail.text).not.toContain('[Consulta del plan Team]');

    // A comment is the default, and may be said; any other topic is refused in Spanish.
    expect((await t.post(F, { message: 'Un comentario con su tema', topic: 'comment' }, { token: nora.accessToken })).statusCode).toBe(201);
    expect((await t.lastMail(OPERATOR)).subject).toBe('Comentario de Nora en Diván');
    const refused = await t.post(F, { message: 'Un tema que no existe', topic: 'gold' }, { token: nora.accessToken });
    expect([refused.statusCode, codeOf(refused)]).toEqual([400, 'invalid_argument']);
    expect(json<{ fields: { path: string; message: string }[] }>(refused).fields).toContainEqual({
      path: 'topic',
      message: 'Opción inválida',
    });
  });

  it('without OPERATOR_EMAIL keeps the comment and mails nothing; the page is optional', async () => {
    const res = await bare.post(F, { message: 'Echo de menos un modo compacto.' }, { token: pablo.accessToken });
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await stored(bare, json<FeedbackReceipt>(res).id);
    expect(row).toMatchObject({ user_id: pablo.userId, message: 'Echo de menos un modo compacto.', page: null });
    expect(await feedbackMails(bare)).toEqual([]);
  });

  it('refuses bad input with a Spanish 400 naming the field, and stores nothing', async () => {
    const before = (await t.rows<{ n: number }>(sql`select count(*)::int as n from feedback`))[0]!.n;
    const cases: [unknown, string, string][] = [
      [{}, 'message', 'El campo comentario es obligatorio'],
      [{ message: '      ' }, 'message', 'El campo comentario es obligatorio'],
      [{ message: '  corto   ' }, 'message', feedbackMessages.tooShort],
      [{ message: 'x'.repeat(5001) }, 'message', 'No puede tener más de 5000 caracteres'],
      [{ message: 'Con un carácter \u0000 nulo' }, 'message', 'Comentario contiene caracteres no permitidos'],
      [{ message: 'Un comentario válido', page: '/'.repeat(301) }, 'page', 'No puede tener más de 300 caracteres'],
    ];
    for (const [body, path, message] of cases) {
      const res = await t.post(F, body, { token: lucia.accessToken });
      expect([res.statusCode, codeOf(res)], res.body).toEqual([400, 'invalid_argument']);
      expect(json<{ fields: { path: string; message: string }[] }>(res).fields).toContainEqual({ path, message });
    }
    // Exactly the bounds pass.
    expect((await t.post(F, { message: ' '.repeat(3) + 'x'.repeat(10) }, { token: lucia.accessToken })).statusCode).toBe(201);
    expect((await t.post(F, { message: 'x'.repeat(5000) }, { token: lucia.accessToken })).statusCode).toBe(201);
    expect((await t.rows<{ n: number }>(sql`select count(*)::int as n from feedback`))[0]!.n).toBe(before + 2);
  });

  it(`takes ${FEEDBACK_PER_HOUR} comments per user per hour, then a Spanish 429; others are not held back`, async () => {
    const ana = await therapist(t, 'ana@ayuda.test', 'Ana');
    for (let i = 1; i <= FEEDBACK_PER_HOUR; i++)
      expect((await t.post(F, { message: `Comentario número ${i}` }, { token: ana.accessToken })).statusCode).toBe(201);
    const refused = await t.post(F, { message: 'Uno más de la cuenta' }, { token: ana.accessToken });
    expect([refused.statusCode, codeOf(refused)]).toEqual([429, 'too_many_requests']);
    expect(json<{ message: string }>(refused).message).toBe(feedbackMessages.tooMany);
    expect((await t.rows(sql`select 1 from feedback where message = 'Uno más de la cuenta'`)).length).toBe(0);
    // Bad input is still told as such; another user still writes.
    expect((await t.post(F, { message: 'corto' }, { token: ana.accessToken })).statusCode).toBe(400);
    const marta = await therapist(t, 'marta@ayuda.test', 'Marta');
    expect((await t.post(F, { message: 'Mi primer comentario' }, { token: marta.accessToken })).statusCode).toBe(201);
  });
});

describe('feedback: OPERATOR_EMAIL', () => {
  it('is read as an address; anything else stops start-up naming the variable', () => {
    const env = { APP_SECRET: 'x'.repeat(32), DATA_DIR: '/nonexistent/divan' };
    expect(loadConfig({ ...env, OPERATOR_EMAIL: 'soporte@divan.example' }).operatorEmail).toBe('soporte@divan.example');
    expect(loadConfig(env).operatorEmail).toBeUndefined();
    expect(() => loadConfig({ ...env, OPERATOR_EMAIL: 'soporte' })).toThrow(
      new ConfigError('Invalid environment variable OPERATOR_EMAIL: must be an email address'),
    );
  });
});
