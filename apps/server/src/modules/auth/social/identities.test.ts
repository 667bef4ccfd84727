import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, createTestApp, device, json, type TestApp } from '../../../test/test-app';
import { loginCode, signIn, signUpConfirmed } from '../../../test/auth-flows';
import { startFakeOidc, type FakeOidc, type FakePerson } from '../../../test/fake-oidc/fake-oidc';

const PUBLIC = 'http://divan.test';
const ME = '/api/v1/me/identities';

let t: TestApp;
let google: FakeOidc;
let apple: FakeOidc;
beforeAll(async () => {
  google = await startFakeOidc({ kind: 'google', clientId: 'divan-google', redirectUris: [`${PUBLIC}/auth/google/callback`] });
  apple = await startFakeOidc({
    kind: 'apple',
    clientId: 'es.divan.web',
    redirectUris: [`${PUBLIC}/api/v1/realms/therapists/login/apple/callback`],
  });
  t = await createTestApp({ social: { ...google.settings, ...apple.settings } });
});
afterAll(async () => {
  await t?.close();
  await google?.close();
  await apple?.close();
});

const codeOf = (res: { statusCode: number; body: string }) => [res.statusCode, (JSON.parse(res.body) as { code: string }).code];
type Identity = { id: string; provider: string; email: string | null; createdAt: string; lastUsedAt: string | null };

/** The provider's answer as the web app's callback page gets it (Apple's through Diván's form_post callback). */
async function answerOf(provider: 'google' | 'apple', url: string, person: FakePerson) {
  const answer = await (provider === 'google' ? google : apple).authorize(url, person);
  if (provider === 'google') return { code: answer.code!, state: answer.state! };
  const res = await t.app.inject({
    method: 'POST',
    url: new URL(answer.redirectUri).pathname,
    payload: new URLSearchParams(answer.fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const to = new URL(res.headers.location as string);
  return {
    code: to.searchParams.get('code')!,
    state: to.searchParams.get('state')!,
    ...(to.searchParams.get('user') ? { user: to.searchParams.get('user')! } : {}),
  };
}
async function googleSignUp(email: string) {
  const { url } = json<{ url: string }>(await t.post(`${AUTH}/login/google/authorize`, { form: 'signup' }));
  const res = await t.post(`${AUTH}/login/google`, {
    ...(await answerOf('google', url, { email, name: 'Lola Sol' })),
    form: 'signup',
    ...device,
  });
  return json<{ userId: string; accessToken: string }>(res);
}
async function linkStart(token: string, provider: 'google' | 'apple') {
  const res = await t.post(`${ME}/${provider}/authorize`, undefined, { token });
  expect(res.statusCode, res.body).toBe(200);
  return json<{ url: string }>(res).url;
}
async function link(token: string, provider: 'google' | 'apple', person: FakePerson) {
  return t.post(`${ME}/${provider}`, await answerOf(provider, await linkStart(token, provider), person), { token });
}

describe('Ajustes › Seguridad: linked providers', () => {
  let lola: { userId: string; accessToken: string };
  let pablo: { userId: string; accessToken: string };
  beforeAll(async () => {
    lola = await googleSignUp('lola@example.com');
    pablo = await signUpConfirmed(t, 'pablo@example.com', 'Pablo');
  });

  it('lists the identities, whether there is a password, and the providers', async () => {
    const res = json<{ identities: Identity[]; hasPassword: boolean; providers: string[] }>(await t.get(ME, { token: lola.accessToken }));
    expect(res).toMatchObject({ hasPassword: false, providers: ['google', 'apple'] });
    expect(res.identities).toEqual([expect.objectContaining({ provider: 'google', email: 'lola@example.com' })]);
    expect(json(await t.get(ME, { token: pablo.accessToken }))).toMatchObject({ identities: [], hasPassword: true });
    for (const res of [
      await t.get(ME),
      await t.post(`${ME}/google/authorize`),
      await t.post(`${ME}/google`, { code: 'c', state: 's' }),
      await t.del(`${ME}/${crypto.randomUUID()}`),
    ])
      expect(codeOf(res)).toEqual([401, 'invalid_access_token']);
  });

  it('links Apple to the signed-in account; linking it again changes nothing; it then signs in', async () => {
    const res = await link(lola.accessToken, 'apple', { email: 'lola@icloud.test', name: 'Lola Sol', relay: true });
    expect(res.statusCode, res.body).toBe(200);
    const first = json<Identity>(res);
    expect(first.provider).toBe('apple');
    expect(first.email).toMatch(/@privaterelay\.appleid\.com$/);
    const again = await link(lola.accessToken, 'apple', { email: 'lola@icloud.test', relay: true });
    expect(json<Identity>(again).id).toBe(first.id);
    const { url } = json<{ url: string }>(await t.post(`${AUTH}/login/apple/authorize`, { form: 'login' }));
    const signedIn = await t.post(`${AUTH}/login/apple`, {
      ...(await answerOf('apple', url, { email: 'lola@icloud.test', relay: true })),
      form: 'login',
      ...device,
    });
    expect(json(signedIn)).toMatchObject({ kind: 'signed_in', userId: lola.userId });
  });

  it('an identity of another user is identity_already_linked', async () => {
    expect(codeOf(await link(pablo.accessToken, 'google', { email: 'lola@example.com' }))).toEqual([409, 'identity_already_linked']);
  });

  it('a state started elsewhere is refused: a sign-in’s, another user’s, and a link’s on the sign-in route', async () => {
    const { url } = json<{ url: string }>(await t.post(`${AUTH}/login/google/authorize`, { form: 'login' }));
    expect(
      codeOf(await t.post(`${ME}/google`, await answerOf('google', url, { email: 'p2@example.com' }), { token: pablo.accessToken })),
    ).toEqual([400, 'provider_state_invalid']);
    const lolas = await answerOf('google', await linkStart(lola.accessToken, 'google'), { email: 'p3@example.com' });
    expect(codeOf(await t.post(`${ME}/google`, lolas, { token: pablo.accessToken }))).toEqual([400, 'provider_state_invalid']);
    const pablos = await answerOf('google', await linkStart(pablo.accessToken, 'google'), { email: 'p4@example.com' });
    expect(codeOf(await t.post(`${AUTH}/login/google`, { ...pablos, form: 'login', ...device }))).toEqual([400, 'provider_state_invalid']);
  });

  it('unlinks, but never the last way in; two unlinks at once leave one; another user’s id is not found', async () => {
    const mine = json<{ identities: Identity[] }>(await t.get(ME, { token: lola.accessToken })).identities;
    expect(mine).toHaveLength(2);
    expect(codeOf(await t.del(`${ME}/${mine[0]!.id}`, { token: pablo.accessToken }))).toEqual([404, 'identity_not_found']);
    expect(codeOf(await t.del(`${ME}/${crypto.randomUUID()}`, { token: lola.accessToken }))).toEqual([404, 'identity_not_found']);
    expect(codeOf(await t.del(`${ME}/no-es-un-id`, { token: lola.accessToken }))).toEqual([400, 'invalid_argument']);
    const both = await Promise.all(mine.map((i) => t.del(`${ME}/${i.id}`, { token: lola.accessToken })));
    expect(both.map((r) => r.statusCode).sort()).toEqual([204, 409]);
    expect(codeOf(both.find((r) => r.statusCode === 409)!)).toEqual([409, 'identity_last_way_in']);
    const left = json<{ identities: Identity[] }>(await t.get(ME, { token: lola.accessToken })).identities;
    expect(left).toHaveLength(1);
    expect(codeOf(await t.del(`${ME}/${left[0]!.id}`, { token: lola.accessToken }))).toEqual([409, 'identity_last_way_in']);
  });

  it('«Crear contraseña»: an account made through Google proves its mailbox by the mailed code, then signs in with it too', async () => {
    const PW = '/api/v1/me/password';
    expect((await t.post(`${PW}/code`)).statusCode).toBe(401);
    // An account with a password changes it with the current one instead.
    expect(codeOf(await t.post(`${PW}/code`, undefined, { token: pablo.accessToken }))).toEqual([409, 'password_already_set']);
    const sent = await t.post(`${PW}/code`, undefined, { token: lola.accessToken });
    expect(sent.statusCode, sent.body).toBe(200);
    const { challenge, email } = json<{ challenge: string; email: string }>(sent);
    expect(email).toBe('lola@example.com');
    const mail = await t.lastMail('lola@example.com');
    expect(mail.subject).toBe('Tu código para crear una contraseña en Diván');
    const code = loginCode(mail.text);
    expect(codeOf(await t.post(`${PW}/code`, undefined, { token: lola.accessToken }))).toEqual([429, 'recent_challenge']);
    // Only its own account's challenge, only its code, only a password by the rule.
    const body = { challenge, code, newPassword: 'Divan-Lola-2026' };
    expect(codeOf(await t.post(PW, body, { token: pablo.accessToken }))).toEqual([404, 'challenge_not_found']);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    expect(codeOf(await t.post(PW, { ...body, code: wrong }, { token: lola.accessToken }))).toEqual([400, 'invalid_code']);
    expect((await t.post(PW, { ...body, newPassword: 'corta' }, { token: lola.accessToken })).statusCode).toBe(400);
    expect(json(await t.get(ME, { token: lola.accessToken }))).toMatchObject({ hasPassword: false });
    const made = await t.post(PW, body, { token: lola.accessToken });
    expect(made.statusCode, made.body).toBe(204);
    expect(json(await t.get(ME, { token: lola.accessToken }))).toMatchObject({ hasPassword: true });
    // Once: the code is spent and the account has its password now.
    expect(codeOf(await t.post(PW, body, { token: lola.accessToken }))[0]).toBeGreaterThanOrEqual(400);
    // The email and password now sign in (past the mailed codes' minute between two).
    expect(codeOf(await t.post(`${AUTH}/code`, { email: 'lola@example.com', password: 'Otra-2026x' }))).toEqual([401, 'invalid_password']);
    await t.rows(sql`update auth_challenges set created_at = now() - interval '2 minutes' where user_id = ${lola.userId}`);
    expect((await signIn(t, 'lola@example.com', 'Divan-Lola-2026')).userId).toBe(lola.userId);
    // No longer the last way in: the only identity can go.
    const [only] = json<{ identities: Identity[] }>(await t.get(ME, { token: lola.accessToken })).identities;
    expect((await t.del(`${ME}/${only!.id}`, { token: lola.accessToken })).statusCode).toBe(204);
  });

  it('with a password, the only identity can go', async () => {
    const linked = json<Identity>(await link(pablo.accessToken, 'google', { email: 'pablo.g@example.com' }));
    expect((await t.del(`${ME}/${linked.id}`, { token: pablo.accessToken })).statusCode).toBe(204);
    expect(json(await t.get(ME, { token: pablo.accessToken }))).toMatchObject({ identities: [] });
  });
});
