// Device sessions end at once: an ended session's access token is refused on the next request (in this
// process, in another one through Redis, and in one started later), and a refresh token rotated by
// another tab a moment ago is not taken for a theft, while a real reuse still ends the session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { AUTH, createSecondApp, createTestApp, device, json, type TestApp } from '../../test/test-app';
import { linkToken, signIn, signUpConfirmed } from '../../test/auth-flows';

type Tokens = { accessToken: string; refreshToken: string };
const pg = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
if (!redisUrl && process.env.CI === 'true') throw new Error('REDIS_URL is required under CI: revocation across processes must be tested');

const code = (res: { statusCode: number; json(): unknown }) => ({ status: res.statusCode, code: (res.json() as { code?: string }).code });
const me = (t: TestApp, s: Tokens) => t.get('/api/v1/me', { token: s.accessToken });
const refresh = (t: TestApp, refreshToken: string) => t.get(`${AUTH}/token`, { token: refreshToken });
const refused = { status: 401, code: 'invalid_access_token' };
/** Lets the next sign-in of the same account past the one-challenge-a-minute rule. */
const backdateChallenges = (t: TestApp) => t.rows(sql`update auth_challenges set created_at = created_at - interval '61 seconds'`);
const ageRotation = (t: TestApp, seconds: number) =>
  t.rows(sql`update refresh_tokens set rotated_at = rotated_at - make_interval(secs => ${seconds}) where rotated_at is not null`);

describe(`an ended session's access token is refused at once (${pg ? 'postgres' : 'pglite'})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it("after sign-out; the same user's other device goes on", async () => {
    const phone = await signUpConfirmed(t, 'irene@example.com', 'Irene');
    const laptop = await signIn(t, 'irene@example.com');
    expect((await me(t, laptop)).statusCode).toBe(200);
    expect((await t.del(`${AUTH}/sessions`, { token: laptop.refreshToken })).statusCode).toBe(204);
    expect(code(await me(t, laptop))).toEqual(refused);
    expect(code(await t.get('/api/v1/workspaces', { token: laptop.accessToken }))).toEqual(refused);
    expect((await me(t, phone)).statusCode).toBe(200);
  });

  it('after a password reset (every session) and a password change (the others)', async () => {
    const email = 'bruno@example.com';
    const first = await signUpConfirmed(t, email, 'Bruno');
    const second = await signIn(t, email);
    await t.get(`${AUTH}/password/challenge?email=${email}`);
    const reset = await t.post(`${AUTH}/password/challenge`, {
      code: linkToken((await t.lastMail(email)).text),
      password: 'Olvidada2026',
      ...device,
    });
    expect(reset.statusCode).toBe(200);
    expect(code(await me(t, first))).toEqual(refused);
    expect(code(await me(t, second))).toEqual(refused);
    const afterReset = json<Tokens>(reset);
    expect((await me(t, afterReset)).statusCode).toBe(200);

    await backdateChallenges(t);
    const other = await signIn(t, email, 'Olvidada2026');
    const change = await t.post(
      `${AUTH}/password`,
      { currentPassword: 'Olvidada2026', newPassword: 'Cambiada2026' },
      { token: afterReset.refreshToken },
    );
    expect(change.statusCode).toBe(204);
    expect(code(await me(t, other))).toEqual(refused);
    expect((await me(t, afterReset)).statusCode).toBe(200);
  });

  it('after a refresh token is reused: the old and the new access tokens alike', async () => {
    const s = await signUpConfirmed(t, 'rocio@example.com', 'Rocío');
    const next = json<Tokens>(await refresh(t, s.refreshToken));
    expect((await me(t, next)).statusCode).toBe(200);
    await ageRotation(t, 11);
    expect(code(await refresh(t, s.refreshToken))).toEqual({ status: 401, code: 'session_not_found' });
    expect(code(await me(t, next))).toEqual(refused);
    expect(code(await me(t, s))).toEqual(refused);
  });
});

describe(`a refresh token rotated moments ago (another tab) is not a theft (${pg ? 'postgres' : 'pglite'})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('within the grace: the same new refresh token, a working access token, the session goes on', async () => {
    const s = await signUpConfirmed(t, 'gracia@example.com', 'Gracia');
    const tabA = json<Tokens>(await refresh(t, s.refreshToken));
    const tabB = await refresh(t, s.refreshToken);
    expect(tabB.statusCode).toBe(200);
    expect(json<Tokens>(tabB).refreshToken).toBe(tabA.refreshToken);
    expect((await me(t, json<Tokens>(tabB))).statusCode).toBe(200);
    // The shared successor rotates as usual, and nothing was revoked.
    const later = json<Tokens>(await refresh(t, tabA.refreshToken));
    expect((await me(t, later)).statusCode).toBe(200);
    expect(await t.rows(sql`select id from device_sessions where revoked_at is not null`)).toEqual([]);
  });

  it('past the grace: the device session is revoked (theft)', async () => {
    const s = await signUpConfirmed(t, 'tarde@example.com', 'Tarde');
    const next = json<Tokens>(await refresh(t, s.refreshToken));
    await ageRotation(t, 11);
    expect(code(await refresh(t, s.refreshToken))).toEqual({ status: 401, code: 'session_not_found' });
    expect(code(await refresh(t, next.refreshToken))).toEqual({ status: 401, code: 'session_not_found' });
    expect(code(await me(t, next))).toEqual(refused);
    const [row] = await t.rows<{ revoked_reason: string }>(sql`select revoked_reason from device_sessions where revoked_at is not null`);
    expect(row!.revoked_reason).toBe('refresh_token_reuse');
  });

  it('a token older than the one just rotated, even within the grace: revoked', async () => {
    const s = await signUpConfirmed(t, 'vieja@example.com', 'Vieja');
    const second = json<Tokens>(await refresh(t, s.refreshToken));
    const third = json<Tokens>(await refresh(t, second.refreshToken));
    expect(code(await refresh(t, s.refreshToken))).toEqual({ status: 401, code: 'session_not_found' });
    expect(code(await refresh(t, third.refreshToken))).toEqual({ status: 401, code: 'session_not_found' });
    expect(code(await me(t, third))).toEqual(refused);
  });

  it('a signed-out session is not brought back by the just-rotated token', async () => {
    const s = await signUpConfirmed(t, 'salida@example.com', 'Salida');
    const next = json<Tokens>(await refresh(t, s.refreshToken));
    expect((await t.del(`${AUTH}/sessions`, { token: next.refreshToken })).statusCode).toBe(204);
    expect(code(await refresh(t, s.refreshToken))).toEqual({ status: 401, code: 'session_not_found' });
  });
});

describe.skipIf(!pg)('a server process started after the revocation refuses the token too (PostgreSQL)', () => {
  it('loads recent revocations from the database at start-up', async () => {
    const a = await createTestApp();
    let b: TestApp | undefined;
    try {
      const s = await signUpConfirmed(a, 'arranque@example.com', 'Arranque');
      const live = await signIn(a, 'arranque@example.com');
      expect((await a.del(`${AUTH}/sessions`, { token: s.refreshToken })).statusCode).toBe(204);
      b = await createSecondApp(a);
      expect(code(await me(b, s))).toEqual(refused);
      expect((await me(b, live)).statusCode).toBe(200);
    } finally {
      await b?.close();
      await a.close();
    }
  });
});
if (!pg)
  console.warn(
    'sessions.test: TEST_DATABASE_URL unset, the start-up and two-process revocation tests are skipped (PGlite cannot be shared).',
  );
if (!redisUrl) console.warn('sessions.test: REDIS_URL unset, the two-process revocation test is skipped.');

describe.skipIf(!pg || !redisUrl)('two server processes sharing PostgreSQL and Redis', () => {
  it('a sign-out through one process is refused by the other at once', async () => {
    const a = await createTestApp({ redisUrl });
    let b: TestApp | undefined;
    try {
      b = await createSecondApp(a, { redisUrl });
      const s = await signUpConfirmed(a, 'dos@example.com', 'Dos');
      expect((await me(b, s)).statusCode).toBe(200);
      expect((await a.del(`${AUTH}/sessions`, { token: s.refreshToken })).statusCode).toBe(204);
      const started = Date.now();
      await expect.poll(async () => code(await me(b!, s)), { timeout: 2000, interval: 5 }).toEqual(refused);
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      await b?.close();
      await a.close();
    }
  });
});
