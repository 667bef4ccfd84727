import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { AUTH, createTestApp, device, json, type TestApp } from '../../test/test-app';
import { linkToken, loginCode, PASSWORD, signIn, signUpConfirmed } from '../../test/auth-flows';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const expectError = (res: { statusCode: number; json(): unknown }, status: number, code: string) => {
  expect({ status: res.statusCode, code: (res.json() as { code: string }).code }).toEqual({ status, code });
  expect(typeof (res.json() as { message: string }).message).toBe('string');
};
const expire = (kind: string) =>
  t.app.services.database.db.execute(sql`update auth_challenges set expires_at = now() - interval '1 second' where kind = ${kind}`);
const backdateChallenges = () =>
  t.app.services.database.db.execute(sql`update auth_challenges set created_at = created_at - interval '61 seconds'`);

describe(`sign-up (${process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  it('creates an unconfirmed account and mails a Spanish confirmation link', async () => {
    const res = await t.post(`${AUTH}/users`, { firstName: 'Ana', email: '  Ana.Garcia@Example.com ', password: PASSWORD });
    expect(res.statusCode).toBe(201);
    expect(json(res).userId).toMatch(/^[0-9a-f-]{36}$/);
    const mail = await t.lastMail('ana.garcia@example.com');
    expect(mail.subject).toBe('Confirma tu cuenta de Diván');
    expect(mail.text).toContain('http://divan.test/verify-email/');
  });

  it('refuses a taken email, a weak password and malformed input with their codes', async () => {
    expectError(
      await t.post(`${AUTH}/users`, { firstName: 'Ana', email: 'ana.garcia@example.com', password: PASSWORD }),
      409,
      'user_email_already_exists',
    );
    const weak = await t.post(`${AUTH}/users`, { firstName: 'Ana', email: 'weak@example.com', password: 'abcdefgh' });
    expectError(weak, 400, 'password_conditions');
    expect(json<{ fields: { path: string }[] }>(weak).fields[0]!.path).toBe('password');
    expectError(
      await t.post(`${AUTH}/users`, { firstName: 'Ana', email: 'short@example.com', password: 'Ab1' }),
      400,
      'password_conditions',
    );
    const bad = await t.post(`${AUTH}/users`, { firstName: '', email: 'no-es-un-email' });
    expectError(bad, 400, 'invalid_argument');
    expect(json<{ fields: { path: string; message: string }[] }>(bad).fields).toEqual(
      expect.arrayContaining([
        { path: 'firstName', message: 'El campo nombre es obligatorio' },
        { path: 'email', message: 'Email inválido' },
      ]),
    );
    expectError(await t.post(`${AUTH}/users`, 'not json', { headers: { 'content-type': 'application/json' } }), 400, 'invalid_argument');
  });

  it('resends the confirmation only after a minute, and never to a confirmed or unknown account', async () => {
    expectError(await t.get(`${AUTH}/signup/challenge?email=ana.garcia@example.com`), 429, 'recent_challenge');
    await backdateChallenges();
    expect((await t.get(`${AUTH}/signup/challenge?email=ana.garcia@example.com`)).statusCode).toBe(204);
    expectError(await t.get(`${AUTH}/signup/challenge?email=nadie@example.com`), 404, 'user_not_found');
    expectError(await t.get(`${AUTH}/signup/challenge?email=x`), 400, 'invalid_argument');
  });

  it('confirms with the link, signs in, and the link works once', async () => {
    const token = linkToken((await t.lastMail('ana.garcia@example.com')).text);
    expectError(await t.post(`${AUTH}/signup/challenge`, { code: 'x'.repeat(43), ...device }), 404, 'challenge_not_found');
    const res = await t.post(`${AUTH}/signup/challenge`, { code: token, ...device });
    expect(res.statusCode).toBe(200);
    const body = json<{ accessToken: string; refreshToken: string; profile: { email: string; firstName: string } }>(res);
    expect(body.profile).toMatchObject({ email: 'ana.garcia@example.com', firstName: 'Ana' });
    expect((await t.get('/api/v1/me', { token: body.accessToken })).statusCode).toBe(200);
    expectError(await t.post(`${AUTH}/signup/challenge`, { code: token, ...device }), 404, 'challenge_not_found');
    expectError(await t.get(`${AUTH}/signup/challenge?email=ana.garcia@example.com`), 409, 'user_already_verified');
  });

  it('refuses an expired confirmation link', async () => {
    await t.post(`${AUTH}/users`, { firstName: 'Eva', email: 'eva@example.com', password: PASSWORD });
    const token = linkToken((await t.lastMail('eva@example.com')).text);
    await expire('signup');
    expectError(await t.post(`${AUTH}/signup/challenge`, { code: token, ...device }), 410, 'challenge_expired');
  });
});

describe('two-step login', () => {
  const email = 'marta@example.com';
  beforeAll(() => signUpConfirmed(t, email, 'Marta'));

  it('refuses unknown users, wrong passwords and unconfirmed accounts', async () => {
    expectError(await t.post(`${AUTH}/code`, { email: 'nadie@example.com', password: PASSWORD }), 404, 'user_not_found');
    expectError(await t.post(`${AUTH}/code`, { email, password: 'Incorrecta1' }), 401, 'invalid_password');
    expectError(await t.post(`${AUTH}/code`, { email: 'eva@example.com', password: PASSWORD }), 403, 'user_email_not_verified');
    expectError(await t.post(`${AUTH}/code`, { email, password: '' }), 400, 'invalid_argument');
  });

  it('mails a six-digit code and refuses a second challenge within a minute', async () => {
    const res = await t.post(`${AUTH}/code`, { email, password: PASSWORD });
    expect(res.statusCode).toBe(200);
    const { challenge, expiresAt } = json<{ challenge: string; expiresAt: string }>(res);
    expect(challenge).toBeTruthy();
    const ttl = Date.parse(expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(9 * 60_000);
    expect(ttl).toBeLessThanOrEqual(10 * 60_000);
    expect(loginCode((await t.lastMail(email)).text)).toMatch(/^\d{6}$/);
    expectError(await t.post(`${AUTH}/code`, { email, password: PASSWORD }), 429, 'recent_challenge');
  });

  it('allows five attempts, then refuses even the right code', async () => {
    await backdateChallenges();
    const { challenge } = json<{ challenge: string }>(await t.post(`${AUTH}/code`, { email, password: PASSWORD }));
    const code = loginCode((await t.lastMail(email)).text);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) expectError(await t.post(`${AUTH}/login`, { challenge, code: wrong, ...device }), 400, 'invalid_code');
    expectError(await t.post(`${AUTH}/login`, { challenge, code, ...device }), 429, 'max_attempts');
  });

  it('signs in with the code once; unknown and expired challenges are refused', async () => {
    await backdateChallenges();
    const { challenge } = json<{ challenge: string }>(await t.post(`${AUTH}/code`, { email, password: PASSWORD }));
    const code = loginCode((await t.lastMail(email)).text);
    expectError(await t.post(`${AUTH}/login`, { challenge: crypto.randomUUID(), code, ...device }), 404, 'challenge_not_found');
    expectError(await t.post(`${AUTH}/login`, { challenge: 'nope', code, ...device }), 404, 'challenge_not_found');
    expectError(await t.post(`${AUTH}/login`, { challenge, code: '12ab', ...device }), 400, 'invalid_argument');
    const res = await t.post(
      `${AUTH}/login`,
      { challenge, code, ...device, deviceModel: 'Pixel' },
      { headers: { 'user-agent': 'U'.repeat(900) } },
    );
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({ userId: expect.any(String), accessToken: expect.any(String), refreshToken: expect.any(String) });
    const [session] = await t.rows<{ device_model: string; user_agent: string }>(
      sql`select device_model, user_agent from device_sessions order by created_at desc limit 1`,
    );
    expect(session!.device_model).toBe('Pixel');
    expect(session!.user_agent).toHaveLength(500);
    expectError(await t.post(`${AUTH}/login`, { challenge, code, ...device }), 404, 'challenge_not_found');

    await backdateChallenges();
    const second = json<{ challenge: string }>(await t.post(`${AUTH}/code`, { email, password: PASSWORD }));
    const code2 = loginCode((await t.lastMail(email)).text);
    await expire('login');
    expectError(await t.post(`${AUTH}/login`, { challenge: second.challenge, code: code2, ...device }), 410, 'challenge_expired');
  });
});

describe('refresh tokens and device sessions', () => {
  const email = 'pablo@example.com';
  let tokens: { accessToken: string; refreshToken: string };
  beforeAll(async () => {
    tokens = await signUpConfirmed(t, email, 'Pablo');
  });

  it('rotates the refresh token; reusing a rotated one (past the grace of sessions.test.ts) ends that device session', async () => {
    const first = await t.get(`${AUTH}/token?appVersion=1.0.0`, { token: tokens.refreshToken });
    expect(first.statusCode).toBe(200);
    const next = json<{ accessToken: string; refreshToken: string }>(first);
    expect(next.refreshToken).not.toBe(tokens.refreshToken);
    expect((await t.get('/api/v1/me', { token: next.accessToken })).statusCode).toBe(200);
    await t.app.services.database.db.execute(
      sql`update refresh_tokens set rotated_at = rotated_at - interval '11 seconds' where rotated_at is not null`,
    );
    expectError(await t.get(`${AUTH}/token`, { token: tokens.refreshToken }), 401, 'session_not_found');
    // The thief's reuse revoked the session: the legitimate new token is dead too.
    expectError(await t.get(`${AUTH}/token`, { token: next.refreshToken }), 401, 'session_not_found');
    expectError(await t.get(`${AUTH}/token`), 401, 'session_not_found');
  });

  it('two concurrent refreshes with one token (two tabs) both get the same new refresh token', async () => {
    const s = await signIn(t, email);
    const [a, b] = await Promise.all([
      t.get(`${AUTH}/token`, { token: s.refreshToken }),
      t.get(`${AUTH}/token`, { token: s.refreshToken }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const [ra, rb] = [json<{ refreshToken: string }>(a).refreshToken, json<{ refreshToken: string }>(b).refreshToken];
    expect(ra).toBe(rb);
    expect((await t.get(`${AUTH}/token`, { token: ra })).statusCode).toBe(200);
  });

  it('signs a device out', async () => {
    await backdateChallenges();
    const s = await signIn(t, email);
    expect((await t.del(`${AUTH}/sessions`, { token: s.refreshToken })).statusCode).toBe(204);
    expectError(await t.get(`${AUTH}/token`, { token: s.refreshToken }), 401, 'session_not_found');
    expect((await t.del(`${AUTH}/sessions`, { token: s.refreshToken })).statusCode).toBe(204);
  });

  it('refuses missing, forged and malformed access tokens', async () => {
    expectError(await t.get('/api/v1/me'), 401, 'invalid_access_token');
    expectError(await t.get('/api/v1/me', { token: 'abc.def.ghi' }), 401, 'invalid_access_token');
    expectError(await t.get('/api/v1/me', { headers: { authorization: 'Basic xyz' } }), 401, 'invalid_access_token');
  });
});

describe('passwords', () => {
  const email = 'sara@example.com';
  let s: { refreshToken: string };
  beforeAll(async () => {
    s = await signUpConfirmed(t, email, 'Sara');
  });

  it('changes the password with the current one, and signs other devices out', async () => {
    await backdateChallenges();
    const other = await signIn(t, email);
    const path = `${AUTH}/password`;
    expectError(
      await t.post(path, { currentPassword: 'Mala12345', newPassword: 'Nueva2026!' }, { token: s.refreshToken }),
      401,
      'invalid_password',
    );
    expectError(await t.post(path, { currentPassword: PASSWORD, newPassword: PASSWORD }, { token: s.refreshToken }), 400, 'password_equal');
    expectError(
      await t.post(path, { currentPassword: PASSWORD, newPassword: 'solominusculas' }, { token: s.refreshToken }),
      400,
      'password_conditions',
    );
    expectError(await t.post(path, { currentPassword: PASSWORD, newPassword: 'Nueva2026!' }, { token: 'nope' }), 401, 'session_not_found');
    expect((await t.post(path, { currentPassword: PASSWORD, newPassword: 'Nueva2026!' }, { token: s.refreshToken })).statusCode).toBe(204);
    expect((await t.get(`${AUTH}/token`, { token: s.refreshToken })).statusCode).toBe(200);
    expectError(await t.get(`${AUTH}/token`, { token: other.refreshToken }), 401, 'session_not_found');
    await backdateChallenges();
    expectError(await t.post(`${AUTH}/code`, { email, password: PASSWORD }), 401, 'invalid_password');
    await signIn(t, email, 'Nueva2026!');
  });

  it('resets a forgotten password by mail without telling whether the account exists', async () => {
    const before = (await t.app.services.mailer.list(undefined, 1000)).length;
    expect((await t.get(`${AUTH}/password/challenge?email=nadie@example.com`)).statusCode).toBe(204);
    expect((await t.app.services.mailer.list(undefined, 1000)).length).toBe(before);
    expect((await t.get(`${AUTH}/password/challenge?email=${email}`)).statusCode).toBe(204);
    const mail = await t.lastMail(email);
    expect(mail.subject).toBe('Restablece tu contraseña de Diván');
    const token = linkToken(mail.text);
    expectError(await t.post(`${AUTH}/password/challenge`, { code: token, password: 'debil', ...device }), 400, 'password_conditions');
    const res = await t.post(`${AUTH}/password/challenge`, { code: token, password: 'Olvidada2026', ...device });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({ accessToken: expect.any(String) });
    expectError(
      await t.post(`${AUTH}/password/challenge`, { code: token, password: 'Olvidada2027', ...device }),
      404,
      'challenge_not_found',
    );
    await backdateChallenges();
    await signIn(t, email, 'Olvidada2026');
  });

  it('refuses an expired reset link', async () => {
    await backdateChallenges();
    await t.get(`${AUTH}/password/challenge?email=${email}`);
    const token = linkToken((await t.lastMail(email)).text);
    await expire('password');
    expectError(await t.post(`${AUTH}/password/challenge`, { code: token, password: 'Caducada2026', ...device }), 410, 'challenge_expired');
  });
});

describe('client version', () => {
  it('serves a request without a version and refuses an outdated one', async () => {
    expect((await t.get('/api/v1/health')).statusCode).toBe(200);
    expect((await t.get('/api/v1/health', { headers: { 'x-client-version': '1.0.0' } })).statusCode).toBe(200);
    expectError(await t.get('/api/v1/health', { headers: { 'x-client-version': '0.9.9' } }), 426, 'outdated_client');
    expectError(await t.get('/api/v1/health', { headers: { 'x-client-version': 'garbage' } }), 426, 'outdated_client');
  });
});
