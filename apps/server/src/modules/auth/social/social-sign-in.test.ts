import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { AUTH, createTestApp, device, json, type TestApp } from '../../../test/test-app';
import { loginCode, PASSWORD, signUpConfirmed } from '../../../test/auth-flows';
import { startFakeOidc, type FakeOidc, type FakePerson } from '../../../test/fake-oidc/fake-oidc';
import { SoftAuthenticator } from '../../../test/soft-authenticator';

const PUBLIC = 'http://divan.test';
const GOOGLE_REDIRECT = `${PUBLIC}/auth/google/callback`;
const APPLE_REDIRECT = `${PUBLIC}/api/v1/realms/therapists/login/apple/callback`;
const OTHER_REDIRECT = `${PUBLIC}/otra/callback`;

let t: TestApp;
let google: FakeOidc;
let apple: FakeOidc;
beforeAll(async () => {
  google = await startFakeOidc({ kind: 'google', clientId: 'divan-google', redirectUris: [GOOGLE_REDIRECT, OTHER_REDIRECT] });
  apple = await startFakeOidc({ kind: 'apple', clientId: 'es.divan.web', redirectUris: [APPLE_REDIRECT] });
  t = await createTestApp({ social: { ...google.settings, ...apple.settings } });
});
afterAll(async () => {
  await t?.close();
  await google?.close();
  await apple?.close();
});

const expectError = (res: { statusCode: number; body: string }, status: number, code: string) => {
  const body = JSON.parse(res.body) as { code: string; message: string };
  expect({ status: res.statusCode, code: body.code }).toEqual({ status, code });
  expect(body.message).toMatch(/[a-záéíóúñ]/i);
};
type Tokens = {
  kind: string;
  created: boolean;
  accessToken: string;
  userId: string;
  profile: { firstName: string; lastName: string | null; email: string };
};
type LinkRequired = { kind: 'link_required'; link: string; email: string; provider: string; expiresAt: string };

async function startAt(provider: 'google' | 'apple', form: 'login' | 'signup' = 'login', extra: object = {}) {
  const res = await t.post(`${AUTH}/login/${provider}/authorize`, { form, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return json<{ url: string }>(res).url;
}
/** What the web app's callback page posts, after the provider (and, for Apple, Diván's form_post callback). */
async function callback(provider: 'google' | 'apple', url: string, person: FakePerson) {
  const answer = await (provider === 'google' ? google : apple).authorize(url, person);
  if (provider === 'google') return { code: answer.code!, state: answer.state!, user: undefined };
  expect(answer).toMatchObject({ method: 'POST', redirectUri: APPLE_REDIRECT });
  const res = await t.app.inject({
    method: 'POST',
    url: new URL(answer.redirectUri).pathname,
    payload: new URLSearchParams(answer.fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(res.statusCode).toBe(303);
  const to = new URL(res.headers.location as string);
  expect(`${to.origin}${to.pathname}`).toBe(`${PUBLIC}/auth/apple/callback`);
  return { code: to.searchParams.get('code')!, state: to.searchParams.get('state')!, user: to.searchParams.get('user') ?? undefined };
}
async function signInWith(provider: 'google' | 'apple', person: FakePerson, form: 'login' | 'signup' = 'login') {
  const answer = await callback(provider, await startAt(provider, form), person);
  return t.post(`${AUTH}/login/${provider}`, { ...answer, form, ...device });
}
const users = (email: string) => t.rows<{ id: string }>(sql`select id from users where email = ${email}`);

describe('sign up and sign in with Google or Apple', () => {
  it('lists the configured providers', async () => {
    expect(json(await t.get(`${AUTH}/login/providers`))).toEqual({ providers: ['google', 'apple'] });
  });

  it('signs up with Google: a confirmed account without password, its workspace and identity; the tokens work', async () => {
    const res = await signInWith('google', { email: 'Ana.Google@Example.com', name: 'Ana María López' }, 'signup');
    expect(res.statusCode, res.body).toBe(200);
    const body = json<Tokens>(res);
    expect(body).toMatchObject({
      kind: 'signed_in',
      created: true,
      profile: { firstName: 'Ana', lastName: 'María López', email: 'ana.google@example.com' },
    });
    expect(json(await t.get('/api/v1/me', { token: body.accessToken }))).toMatchObject({ email: 'ana.google@example.com' });
    const [user] = await t.rows<{ password_hash: string | null; email_verified_at: Date | null }>(
      sql`select password_hash, email_verified_at from users where id = ${body.userId}`,
    );
    expect(user).toMatchObject({ password_hash: null });
    expect(user!.email_verified_at).not.toBeNull();
    const workspaces = await t.get('/api/v1/workspaces', { token: body.accessToken });
    expect(json<unknown[]>(workspaces).length ?? json<{ workspaces: unknown[] }>(workspaces).workspaces.length).toBeGreaterThan(0);
    const identities = await t.rows<{ provider: string; email: string }>(
      sql`select provider, email from user_identities where user_id = ${body.userId}`,
    );
    expect(identities).toEqual([{ provider: 'google', email: 'ana.google@example.com' }]);
  });

  it('a sign-up with a colleague’s code: the code kept with the started sign-in joins the new account', async () => {
    const referrer = await signUpConfirmed(t, 'referente@example.com', 'Rita');
    const { code } = json<{ code: string }>(await t.get('/api/v1/me/referral', { token: referrer.accessToken }));
    const url = await startAt('google', 'signup', { referralCode: code });
    const answer = await callback('google', url, { email: 'amiga@example.com', name: 'Amiga' });
    const friend = json<Tokens>(await t.post(`${AUTH}/login/google`, { ...answer, form: 'signup', ...device }));
    expect(friend).toMatchObject({ kind: 'signed_in', created: true });
    const mine = json<{ invitedBy: { firstName: string } | null }>(await t.get('/api/v1/me/referral', { token: friend.accessToken }));
    expect(mine.invitedBy).toMatchObject({ firstName: 'Rita' });
  });

  it('a colleague’s code no one owns is refused when the sign-up starts, before the provider is asked', async () => {
    const res = await t.post(`${AUTH}/login/google/authorize`, { form: 'signup', referralCode: 'ZZZZ9999' });
    expectError(res, 404, 'referral_code_not_found');
    expect(JSON.parse(res.body)).toMatchObject({ message: expect.stringContaining('Ese código de invitación no existe') });
    // Nothing started: no state kept for a round trip.
    expect(await t.rows(sql`select 1 from oauth_states where referral_code = 'ZZZZ9999'`)).toEqual([]);
    // A sign-in carries no code (the field is the sign-up's): it starts as always.
    expect((await t.post(`${AUTH}/login/google/authorize`, { form: 'login', referralCode: 'ZZZZ9999' })).statusCode).toBe(200);
  });

  it('the same Google account signs in to the same user, directly', async () => {
    const first = await users('ana.google@example.com');
    const res = await signInWith('google', { email: 'ana.google@example.com', name: 'Otro Nombre' });
    expect(json<Tokens>(res)).toMatchObject({ kind: 'signed_in', created: false, userId: first[0]!.id, profile: { firstName: 'Ana' } });
  });

  it('an account with a second factor (a passkey) answers it after Google too, not tokens (issue 32)', async () => {
    const person = { email: 'sf.google@example.com', name: 'Sara Factor' };
    const first = json<{ accessToken: string; userId: string }>(await signInWith('google', person, 'signup'));
    const key = new SoftAuthenticator();
    const token = first.accessToken;
    const options = json<{ challenge: string; user: { id: string } }>(await t.post(`${AUTH}/passkeys/options`, undefined, { token }));
    const { cred, response } = key.register(options);
    expect((await t.post(`${AUTH}/passkeys`, { name: 'Portátil', response }, { token })).statusCode).toBe(201);

    const again = await signInWith('google', person);
    expect(again.statusCode, again.body).toBe(200);
    const step = json<{ kind: string; method: string; challenge: string; accessToken?: string }>(again);
    expect(step).toMatchObject({ kind: 'second_factor', method: 'passkey', passkey: true });
    expect(step.accessToken).toBeUndefined();
    const sf = `${AUTH}/second-factor/login/passkey`;
    const assertion = json<{ challenge: string }>(await t.post(`${sf}/options`, { challenge: step.challenge }));
    const res = await t.post(sf, { challenge: step.challenge, response: key.assert(cred, assertion.challenge), ...device });
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toMatchObject({ userId: first.userId });
  });

  it('signs in twice with Apple: the name posted the first time is kept, the second has no `user`; relay email accepted', async () => {
    const firstAnswer = await callback('apple', await startAt('apple', 'signup'), {
      email: 'bea@icloud.test',
      name: 'Beatriz Ruiz',
      relay: true,
    });
    expect(JSON.parse(firstAnswer.user!)).toMatchObject({ name: { firstName: 'Beatriz', lastName: 'Ruiz' } });
    const first = json<Tokens>(await t.post(`${AUTH}/login/apple`, { ...firstAnswer, form: 'signup', ...device }));
    expect(first).toMatchObject({ kind: 'signed_in', created: true, profile: { firstName: 'Beatriz', lastName: 'Ruiz' } });
    expect(first.profile.email).toMatch(/^[0-9a-f]{10}@privaterelay\.appleid\.com$/);
    const secondAnswer = await callback('apple', await startAt('apple'), { email: 'bea@icloud.test', name: 'Cambiado', relay: true });
    expect(secondAnswer.user).toBeUndefined();
    const second = json<Tokens>(await t.post(`${AUTH}/login/apple`, { ...secondAnswer, form: 'login', ...device }));
    expect(second).toMatchObject({ kind: 'signed_in', created: false, userId: first.userId, profile: { firstName: 'Beatriz' } });
    expect(apple.refusedClientAuth).toBe(0);
  });

  it('without a name (Apple, and an unreadable `user`) the first name comes from the email', async () => {
    const answer = await callback('apple', await startAt('apple'), { email: 'carla.sanz@icloud.test' });
    const res = await t.post(`${AUTH}/login/apple`, { ...answer, user: '{no json', form: 'login', ...device });
    expect(json<Tokens>(res).profile).toMatchObject({ firstName: 'Carla', email: 'carla.sanz@icloud.test' });
  });

  it('a verified Google email of an existing account: linked only after that account’s mailed code; then directly', async () => {
    const existing = await signUpConfirmed(t, 'dora@example.com', 'Dora');
    const res = await signInWith('google', { email: 'dora@example.com', name: 'Dora G' });
    expect(res.statusCode).toBe(200);
    const pending = json<LinkRequired>(res);
    expect(pending).toMatchObject({ kind: 'link_required', email: 'dora@example.com', provider: 'google' });
    expect(await t.rows(sql`select 1 from user_identities where user_id = ${existing.userId}`)).toEqual([]);
    const mail = await t.lastMail('dora@example.com');
    expect(mail.text).toContain('vincular tu cuenta de Google');
    const code = loginCode(mail.text);
    const wrong = code === '000000' ? '111111' : '000000';
    expectError(await t.post(`${AUTH}/login/google/link`, { link: pending.link, code: wrong, ...device }), 400, 'invalid_code');
    expectError(await t.post(`${AUTH}/login/apple/link`, { link: pending.link, code, ...device }), 404, 'challenge_not_found');
    const linked = await t.post(`${AUTH}/login/google/link`, { link: pending.link, code, ...device });
    expect(linked.statusCode, linked.body).toBe(200);
    expect(json<Tokens>(linked)).toMatchObject({ kind: 'signed_in', created: false, userId: existing.userId });
    expectError(await t.post(`${AUTH}/login/google/link`, { link: pending.link, code, ...device }), 404, 'challenge_not_found');
    const again = await signInWith('google', { email: 'dora@example.com' });
    expect(json<Tokens>(again)).toMatchObject({ kind: 'signed_in', userId: existing.userId });
    // A confirmed account keeps its password.
    const [row] = await t.rows<{ has: boolean }>(sql`select password_hash is not null as has from users where id = ${existing.userId}`);
    expect(row).toEqual({ has: true });
  });

  it('limits the attempts at the mailed code as a login does', async () => {
    await signUpConfirmed(t, 'eli@example.com', 'Eli');
    const pending = json<LinkRequired>(await signInWith('google', { email: 'eli@example.com' }));
    const code = loginCode((await t.lastMail('eli@example.com')).text);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++)
      expectError(await t.post(`${AUTH}/login/google/link`, { link: pending.link, code: wrong, ...device }), 400, 'invalid_code');
    expectError(await t.post(`${AUTH}/login/google/link`, { link: pending.link, code, ...device }), 429, 'max_attempts');
  });

  it('an account never confirmed, proved by the mailed code: confirmed and its password dropped', async () => {
    await t.post(`${AUTH}/users`, { firstName: 'Fina', email: 'fina@example.com', password: PASSWORD });
    const pending = json<LinkRequired>(await signInWith('google', { email: 'fina@example.com' }));
    const code = loginCode((await t.lastMail('fina@example.com')).text);
    const linked = await t.post(`${AUTH}/login/google/link`, { link: pending.link, code, ...device });
    expect(linked.statusCode, linked.body).toBe(200);
    const [row] = await t.rows<{ password_hash: string | null; verified: boolean }>(
      sql`select password_hash, email_verified_at is not null as verified from users where email = 'fina@example.com'`,
    );
    expect(row).toEqual({ password_hash: null, verified: true });
  });

  it('an unverified provider email is refused with its Spanish message, and makes no account', async () => {
    const res = await signInWith('google', { email: 'gala@example.com', verified: false });
    expectError(res, 403, 'provider_email_not_verified');
    expect(json<{ message: string }>(res).message).toBe('El email de tu proveedor no está verificado.');
    expectError(await signInWith('apple', { email: 'gala2@icloud.test', verified: false }), 403, 'provider_email_not_verified');
    expect(await users('gala@example.com')).toEqual([]);
  });

  it('refuses a wrong state, a replayed state, a replayed code and a code minted for another redirect_uri', async () => {
    const person = { email: 'hugo@example.com' };
    const answer = await callback('google', await startAt('google'), person);
    expectError(
      await t.post(`${AUTH}/login/google`, { ...answer, state: 'x'.repeat(43), form: 'login', ...device }),
      400,
      'provider_state_invalid',
    );
    // The state of Google's sign-in is not Apple's.
    expectError(await t.post(`${AUTH}/login/apple`, { ...answer, form: 'login', ...device }), 400, 'provider_state_invalid');
    expect((await t.post(`${AUTH}/login/google`, { ...answer, form: 'login', ...device })).statusCode).toBe(200);
    expectError(await t.post(`${AUTH}/login/google`, { ...answer, form: 'login', ...device }), 400, 'provider_state_invalid');
    // The code again, with a fresh state: the provider refuses it.
    const fresh = await callback('google', await startAt('google'), { email: 'ines@example.com' });
    expectError(
      await t.post(`${AUTH}/login/google`, { ...fresh, code: answer.code, form: 'login', ...device }),
      400,
      'provider_user_error',
    );
    // A code minted for another redirect_uri (the state is Diván's): the exchange with Diván's is refused.
    const url = new URL(await startAt('google'));
    url.searchParams.set('redirect_uri', OTHER_REDIRECT);
    const other = await google.authorize(url.href, { email: 'juan@example.com' });
    expect(other.redirectUri).toBe(OTHER_REDIRECT);
    expectError(
      await t.post(`${AUTH}/login/google`, { code: other.code, state: other.state, form: 'login', ...device }),
      400,
      'provider_user_error',
    );
    expect(await users('juan@example.com')).toEqual([]);
    expect(await users('ines@example.com')).toEqual([]);
  });

  it('an expired state is refused', async () => {
    const answer = await callback('google', await startAt('google'), { email: 'kiko@example.com' });
    await t.app.services.database.db.execute(
      sql`update oauth_states set expires_at = now() - interval '1 second' where consumed_at is null`,
    );
    expectError(await t.post(`${AUTH}/login/google`, { ...answer, form: 'login', ...device }), 400, 'provider_state_invalid');
  });

  it('the hourly sweep removes used and expired sign-ins and expired pending links, and keeps live ones', async () => {
    await startAt('google');
    await t.rows(sql`update pending_identity_links set expires_at = now() - interval '1 second'`);
    const count = async (table: 'oauth_states' | 'pending_identity_links') =>
      Number((await t.rows<{ n: string }>(sql`select count(*) as n from ${sql.identifier(table)}`))[0]!.n);
    expect(await count('oauth_states')).toBeGreaterThan(1);
    await t.app.services.jobs.runSweeps();
    expect(await count('oauth_states')).toBe(1);
    expect(await count('pending_identity_links')).toBe(0);
  });

  it('Apple’s token endpoint refuses a client secret not signed by the team’s key: provider_user_error', async () => {
    const other = await startFakeOidc({ kind: 'apple', clientId: 'es.divan.web', redirectUris: [APPLE_REDIRECT] });
    const wrong = await createTestApp({ social: { apple: { ...other.settings.apple!, privateKey: apple.settings.apple!.privateKey } } });
    try {
      const { url } = json<{ url: string }>(await wrong.post(`${AUTH}/login/apple/authorize`, { form: 'login' }));
      const answer = await other.authorize(url, { email: 'lia@icloud.test', name: 'Lía' });
      const res = await wrong.post(`${AUTH}/login/apple`, {
        code: answer.code,
        state: answer.state,
        user: answer.user,
        form: 'login',
        ...device,
      });
      expectError(res, 400, 'provider_user_error');
      expect(other.refusedClientAuth).toBe(1);
    } finally {
      await wrong.close();
      await other.close();
    }
  });

  it('a cancelled Apple sign-in goes back to the web app with its error', async () => {
    const answer = await apple.authorize(await startAt('apple'), { email: 'x@icloud.test', cancel: true });
    const res = await t.app.inject({
      method: 'POST',
      url: new URL(answer.redirectUri).pathname,
      payload: new URLSearchParams(answer.fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${PUBLIC}/auth/apple/callback?error=user_cancelled_authorize`);
    const empty = await t.app.inject({ method: 'POST', url: '/api/v1/realms/therapists/login/apple/callback' });
    expect(empty.headers.location).toBe(`${PUBLIC}/auth/apple/callback?error=invalid_request`);
  });
});

describe('without providers', () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await createTestApp();
  });
  afterAll(() => bare?.close());

  it('lists none, and every provider route answers provider_not_configured', async () => {
    expect(json(await bare.get(`${AUTH}/login/providers`))).toEqual({ providers: [] });
    expectError(await bare.post(`${AUTH}/login/google/authorize`, { form: 'login' }), 404, 'provider_not_configured');
    expectError(
      await bare.post(`${AUTH}/login/apple`, { code: 'c', state: 's', form: 'login', ...device }),
      404,
      'provider_not_configured',
    );
  });

  it('a provider that cannot be reached is provider_user_error, not a 500', async () => {
    const down = await createTestApp({ social: { google: { clientId: 'x', clientSecret: 'y', issuer: 'http://127.0.0.1:9' } } });
    try {
      expectError(await down.post(`${AUTH}/login/google/authorize`, { form: 'login' }), 400, 'provider_user_error');
    } finally {
      await down.close();
    }
  });
});
