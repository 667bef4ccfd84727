import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { AUTH, createTestApp, device, json, type TestApp } from '../../../test/test-app';
import { linkToken, signIn } from '../../../test/auth-flows';
import { addMember, createWorkspace, therapist, type Therapist } from '../../../test/workspace-fixtures';
import { SoftAuthenticator, type SoftCredential } from '../../../test/soft-authenticator';
import { relyingParty } from './passkeys.service';

/**
 * Issue 32, passkeys: registered with a software authenticator (node:crypto, ES256, attestation `none`), signing in
 * with one alone, as the second step and for step-up; challenges once, for their purpose and their user; the signature
 * counter; the deletion rules; the workspace policy counting a passkey. One app for the whole file.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const P = `${AUTH}/passkeys`;
const SF = `${AUTH}/second-factor`;
const key = new SoftAuthenticator();
const db = () => t.app.services.database.db;
const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;
const expectError = (res: { statusCode: number; json(): unknown }, status: number, code: string) => {
  const body = res.json() as { code?: string; message: string };
  expect({ status: res.statusCode, code: body.code }).toEqual({ status, code });
  expect(body.message).toMatch(/[a-záéíóúñ]/i);
};
type Options = { challenge: string; user: { id: string }; allowCredentials?: { id: string }[]; rp?: { id: string } };
const sidOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;
const stale = (token: string) =>
  db().execute(sql`update device_sessions set second_factor_at = now() - interval '11 minutes' where id = ${sidOf(token)}`);

async function addPasskey(who: { accessToken: string }, name: string) {
  const started = await t.post(`${P}/options`, undefined, { token: who.accessToken });
  expect(started.statusCode, started.body).toBe(200);
  const { cred, response } = key.register(json<Options>(started));
  const res = await t.post(P, { name, response }, { token: who.accessToken });
  expect(res.statusCode, res.body).toBe(201);
  return { cred, passkey: json<{ id: string; name: string }>(res) };
}
const signInOptions = async () => json<Options>(await t.post(`${AUTH}/login/passkey/options`));
const signInWith = (response: unknown) => t.post(`${AUTH}/login/passkey`, { response, ...device });
const stepUpOptions = async (who: { accessToken: string }) =>
  json<Options>(await t.post(`${SF}/step-up/passkey/options`, undefined, { token: who.accessToken }));

describe('passkeys', () => {
  let ana: Therapist;
  let bea: Therapist;
  let anaKey: SoftCredential;
  let anaPasskeyId: string;
  let beaKey: SoftCredential;

  beforeAll(async () => {
    ana = await therapist(t, 'ana@passkeys.test', 'Ana');
    bea = await therapist(t, 'bea@passkeys.test', 'Bea');
  });

  it('takes PUBLIC_URL as the relying party; a loopback address is served as localhost', () => {
    expect(relyingParty('https://app.divan.es')).toEqual({ rpId: 'app.divan.es', origin: 'https://app.divan.es' });
    expect(relyingParty('http://127.0.0.1:4321')).toEqual({ rpId: 'localhost', origin: 'http://localhost:4321' });
  });

  it('registers several named passkeys, listed with their last use; the challenge is stored hashed', async () => {
    const started = await t.post(`${P}/options`, undefined, { token: ana.accessToken });
    expect(started.statusCode, started.body).toBe(200);
    const options = json<Options & { authenticatorSelection: { residentKey: string }; attestation: string }>(started);
    expect(options.rp?.id).toBe('divan.test');
    expect(options.authenticatorSelection.residentKey).toBe('required');
    expect(options.attestation).toBe('none');
    const stored = rowsOf<{ challenge_hash: string; purpose: string; user_id: string }>(
      await db().execute(sql`select challenge_hash, purpose, user_id from webauthn_challenges`),
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ purpose: 'register', user_id: ana.userId });
    expect(stored[0]!.challenge_hash).not.toContain(options.challenge);

    const { cred, response } = key.register(options);
    const res = await t.post(P, { name: 'Portátil', response }, { token: ana.accessToken });
    expect(res.statusCode, res.body).toBe(201);
    anaKey = cred;
    anaPasskeyId = json<{ id: string }>(res).id;
    expect(json(res)).toMatchObject({ name: 'Portátil', lastUsedAt: null, deviceType: 'singleDevice', backedUp: false });
    // The same answer again: its challenge is spent.
    expectError(await t.post(P, { name: 'Otra vez', response }, { token: ana.accessToken }), 400, 'passkey_challenge_invalid');

    await addPasskey(ana, 'Móvil');
    const list = json<{ items: { name: string; lastUsedAt: string | null; createdAt: string }[] }>(
      await t.get(P, { token: ana.accessToken }),
    );
    expect(list.items.map((p) => p.name)).toEqual(['Portátil', 'Móvil']);
    expect(json(await t.get(SF, { token: ana.accessToken }))).toMatchObject({ totp: false, passkeys: 2 });
    // Another person's list is theirs alone.
    expect(json(await t.get(P, { token: bea.accessToken }))).toEqual({ items: [] });
    beaKey = (await addPasskey(bea, 'Llave de Bea')).cred;
  });

  it('refuses a registration of another origin, of another user’s challenge, and a bad body in Spanish', async () => {
    const options = json<Options>(await t.post(`${P}/options`, undefined, { token: ana.accessToken }));
    const foreign = key.register(options, { origin: 'https://phishing.test' });
    expectError(await t.post(P, { name: 'Falsa', response: foreign.response }, { token: ana.accessToken }), 401, 'passkey_invalid');
    const other = json<Options>(await t.post(`${P}/options`, undefined, { token: bea.accessToken }));
    const stolen = key.register(other);
    expectError(
      await t.post(P, { name: 'Ajena', response: stolen.response }, { token: ana.accessToken }),
      400,
      'passkey_challenge_invalid',
    );
    const bad = await t.post(P, { name: '', response: { id: 'x' } }, { token: ana.accessToken });
    expectError(bad, 400, 'invalid_argument');
  });

  it('signs in with a passkey alone (a discoverable credential): the tokens of a sign-in, and its last use', async () => {
    const options = await signInOptions();
    expect(options.allowCredentials ?? []).toEqual([]);
    const res = await signInWith(key.assert(anaKey, options.challenge));
    expect(res.statusCode, res.body).toBe(200);
    const tokens = json<{ userId: string; accessToken: string; refreshToken: string; profile: { email: string } }>(res);
    expect(tokens).toMatchObject({ userId: ana.userId, profile: { email: 'ana@passkeys.test' } });
    expect((await t.get('/api/v1/workspaces', { token: tokens.accessToken })).statusCode).toBe(200);
    const list = json<{ items: { id: string; lastUsedAt: string | null }[] }>(await t.get(P, { token: ana.accessToken }));
    expect(list.items.find((p) => p.id === anaPasskeyId)!.lastUsedAt).not.toBeNull();
  });

  it('refuses a wrong challenge, a replayed one, one of another purpose, and another origin', async () => {
    expectError(
      await signInWith(key.assert(anaKey, Buffer.from('not-issued-by-divan').toString('base64url'))),
      400,
      'passkey_challenge_invalid',
    );
    const options = await signInOptions();
    const answer = key.assert(anaKey, options.challenge);
    expect((await signInWith(answer)).statusCode).toBe(200);
    expectError(await signInWith(answer), 400, 'passkey_challenge_invalid');
    // A step-up challenge does not sign in.
    const stepUp = await stepUpOptions(ana);
    expectError(await signInWith(key.assert(anaKey, stepUp.challenge)), 400, 'passkey_challenge_invalid');
    const again = await signInOptions();
    expectError(await signInWith(key.assert(anaKey, again.challenge, { origin: 'https://phishing.test' })), 401, 'passkey_invalid');
    // An expired challenge (5 minutes).
    const late = await signInOptions();
    await db().execute(sql`update webauthn_challenges set expires_at = now() - interval '1 second' where used_at is null`);
    expectError(await signInWith(key.assert(anaKey, late.challenge)), 400, 'passkey_challenge_invalid');
  });

  it('refuses another user’s credential, an unknown one and a forged user handle', async () => {
    // Bea's step-up answered with Ana's passkey.
    const options = await stepUpOptions(bea);
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([beaKey.id.toString('base64url')]);
    expectError(
      await t.post(`${SF}/step-up/passkey`, { response: key.assert(anaKey, options.challenge) }, { token: bea.accessToken }),
      401,
      'passkey_invalid',
    );
    const unknown = key.register({ challenge: 'x', user: { id: 'nadie' } }).cred;
    expectError(await signInWith(key.assert(unknown, (await signInOptions()).challenge)), 401, 'passkey_invalid');
    const forged = key.assert(anaKey, (await signInOptions()).challenge, { userHandle: Buffer.from(bea.userId).toString('base64url') });
    expectError(await signInWith(forged), 401, 'passkey_invalid');
  });

  it('refuses a signature counter that goes back (a cloned authenticator)', async () => {
    // The stored counter (refused answers above moved the authenticator's own further).
    const counterNow = async () =>
      Number(rowsOf<{ counter: string }>(await db().execute(sql`select counter from passkeys where id = ${anaPasskeyId}`))[0]!.counter);
    const before = await counterNow();
    expect(before).toBeGreaterThan(0);
    const res = await signInWith(key.assert(anaKey, (await signInOptions()).challenge, { counter: before - 1 }));
    expectError(res, 401, 'passkey_counter_regression');
    const same = await signInWith(key.assert(anaKey, (await signInOptions()).challenge, { counter: before }));
    expectError(same, 401, 'passkey_counter_regression');
    // The real authenticator, a step further, still works.
    expect((await signInWith(key.assert(anaKey, (await signInOptions()).challenge, { counter: before + 1 }))).statusCode).toBe(200);
    expect(await counterNow()).toBe(before + 1);
  });

  it('is the second step of a password sign-in instead of the mailed code', async () => {
    const mailsBefore = (await t.app.services.mailer.list('ana@passkeys.test', 100)).length;
    const started = await t.post(`${AUTH}/code`, { email: 'ana@passkeys.test', password: 'Consulta2026' });
    expect(started.statusCode, started.body).toBe(200);
    const { challenge, method, passkey } = json<{ challenge: string; method: string; passkey: boolean }>(started);
    expect({ method, passkey }).toEqual({ method: 'passkey', passkey: true });
    expect((await t.app.services.mailer.list('ana@passkeys.test', 100)).length).toBe(mailsBefore);

    // Options only for Ana's passkeys; Bea's passkey does not answer Ana's challenge.
    const optionsRes = await t.post(`${SF}/login/passkey/options`, { challenge });
    expect(optionsRes.statusCode, optionsRes.body).toBe(200);
    const options = json<Options>(optionsRes);
    expect(options.allowCredentials).toHaveLength(2);
    expectError(
      await t.post(`${SF}/login/passkey`, { challenge, response: key.assert(beaKey, options.challenge), ...device }),
      401,
      'passkey_invalid',
    );
    // A sign-in-alone challenge does not answer a second step.
    const alone = await signInOptions();
    expectError(
      await t.post(`${SF}/login/passkey`, { challenge, response: key.assert(anaKey, alone.challenge), ...device }),
      400,
      'passkey_challenge_invalid',
    );
    const fresh = json<Options>(await t.post(`${SF}/login/passkey/options`, { challenge }));
    const res = await t.post(`${SF}/login/passkey`, { challenge, response: key.assert(anaKey, fresh.challenge), ...device });
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toMatchObject({ userId: ana.userId });
    // The login challenge is spent.
    expectError(await t.post(`${SF}/login/passkey/options`, { challenge }), 404, 'challenge_not_found');
    expectError(await t.post(`${SF}/login/passkey/options`, { challenge: 'no-es-un-desafio' }), 404, 'challenge_not_found');
  });

  it('step-up with a passkey; renaming; deleting needs step-up and never leaves the account without a way in', async () => {
    const renamed = await t.patch(`${P}/${anaPasskeyId}`, { name: 'Portátil del despacho' }, { token: ana.accessToken });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(json(renamed)).toMatchObject({ name: 'Portátil del despacho' });
    expectError(await t.patch(`${P}/${anaPasskeyId}`, { name: 'Mía' }, { token: bea.accessToken }), 404, 'passkey_not_found');
    expectError(await t.del(`${P}/${anaPasskeyId}`, { token: bea.accessToken }), 404, 'passkey_not_found');

    await stale(ana.accessToken);
    expectError(await t.del(`${P}/${anaPasskeyId}`, { token: ana.accessToken }), 403, 'step_up_required');
    const options = await stepUpOptions(ana);
    const up = await t.post(`${SF}/step-up/passkey`, { response: key.assert(anaKey, options.challenge) }, { token: ana.accessToken });
    expect(up.statusCode, up.body).toBe(200);
    expect((await t.del(`${P}/${anaPasskeyId}`, { token: ana.accessToken })).statusCode).toBe(204);
    // The deleted passkey no longer signs in.
    expectError(await signInWith(key.assert(anaKey, (await signInOptions()).challenge)), 401, 'passkey_invalid');

    // An account without a password nor Google/Apple: its last passkey is its only way in.
    await db().execute(sql`update users set password_hash = null where id = ${bea.userId}`);
    const beaOptions = await stepUpOptions(bea);
    expect(
      (await t.post(`${SF}/step-up/passkey`, { response: key.assert(beaKey, beaOptions.challenge) }, { token: bea.accessToken }))
        .statusCode,
    ).toBe(200);
    const [beaPasskey] = json<{ items: { id: string }[] }>(await t.get(P, { token: bea.accessToken })).items;
    expectError(await t.del(`${P}/${beaPasskey!.id}`, { token: bea.accessToken }), 409, 'passkey_last_way_in');

    const audit = rowsOf<{ action: string }>(await db().execute(sql`select action from audit_events where actor_id = ${ana.userId}`));
    expect(audit.map((e) => e.action)).toEqual(expect.arrayContaining(['passkey.added', 'passkey.renamed', 'passkey.removed']));
  });
});

describe('«Segundo factor obligatorio» counts a passkey', () => {
  let owner: Therapist;
  let member: Therapist;
  let memberKey: SoftCredential;
  let ownerKey: SoftCredential;
  let workspaceId: string;
  const policyUrl = () => `/api/v1/workspaces/${workspaceId}/second-factor-policy`;
  const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { enrol?: boolean };

  beforeAll(async () => {
    owner = await therapist(t, 'olga@passkeys.test', 'Olga');
    member = await therapist(t, 'mario@passkeys.test', 'Mario');
    const ws = await createWorkspace(t, owner, 'Clínica Llaves', 'clinic');
    workspaceId = ws.id;
    await t.app.services.workspaces.setPlan(workspaceId, { id: 'team', seats: 10 });
    await addMember(t, owner, workspaceId, member, [ws.roles.find((r) => r.name === 'Administrador')!.id]);
  });

  it('an owner with a passkey may require a second factor; a member enrols with a passkey and is no longer listed', async () => {
    expectError(await t.put(policyUrl(), { required: true }, { token: owner.accessToken }), 409, 'second_factor_policy_own_first');
    ownerKey = (await addPasskey(owner, 'Llave de Olga')).cred;
    const on = await t.put(policyUrl(), { required: true }, { token: owner.accessToken });
    expect(on.statusCode, on.body).toBe(200);
    expect(json(on)).toMatchObject({ required: true, membersWithout: [{ email: 'mario@passkeys.test' }] });

    // Mario's next sign-in must enrol: the passkey routes are open to him, the rest is not.
    const session = await signIn(t, 'mario@passkeys.test');
    expect(claims(session.accessToken).enrol).toBe(true);
    expectError(await t.get(`/api/v1/workspaces/${workspaceId}`, { token: session.accessToken }), 403, 'second_factor_enrolment_required');
    expect(json(await t.get(SF, { token: session.accessToken }))).toMatchObject({ enrolmentRequired: true, passkeys: 0 });
    memberKey = (await addPasskey(session, 'Llave de Mario')).cred;
    expect(json(await t.get(SF, { token: session.accessToken }))).toMatchObject({ enrolmentRequired: false, passkeys: 1 });
    const refreshed = await t.get(`${AUTH}/token`, { token: session.refreshToken });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const token = json<{ accessToken: string }>(refreshed).accessToken;
    expect(claims(token).enrol).toBeUndefined();
    expect((await t.get(`/api/v1/workspaces/${workspaceId}`, { token })).statusCode).toBe(200);
    expect(json(await t.get(policyUrl(), { token: owner.accessToken }))).toMatchObject({ membersWithout: [] });

    // While the policy holds, his only second factor cannot be deleted (even after step-up).
    const options = await stepUpOptions({ accessToken: token });
    expect((await t.post(`${SF}/step-up/passkey`, { response: key.assert(memberKey, options.challenge) }, { token })).statusCode).toBe(200);
    const [only] = json<{ items: { id: string }[] }>(await t.get(P, { token })).items;
    expectError(await t.del(`${P}/${only!.id}`, { token }), 409, 'passkey_policy_required');
    // A second passkey: then one of them may go.
    const second = await addPasskey({ accessToken: token }, 'Llave de repuesto');
    expect((await t.del(`${P}/${second.passkey.id}`, { token })).statusCode).toBe(204);
  });

  it('turning the policy off is a step-up a passkey answers', async () => {
    await stale(owner.accessToken);
    expectError(await t.put(policyUrl(), { required: false }, { token: owner.accessToken }), 403, 'step_up_required');
    const options = await stepUpOptions(owner);
    const up = await t.post(`${SF}/step-up/passkey`, { response: key.assert(ownerKey, options.challenge) }, { token: owner.accessToken });
    expect(up.statusCode, up.body).toBe(200);
    const off = await t.put(policyUrl(), { required: false }, { token: owner.accessToken });
    expect(off.statusCode, off.body).toBe(200);
    expect(json(off)).toMatchObject({ required: false });
  });

  it('a password reset of an account with a passkey answers its second step, not tokens', async () => {
    expect((await t.get(`${AUTH}/password/challenge?email=mario@passkeys.test`)).statusCode).toBe(204);
    const token = linkToken((await t.lastMail('mario@passkeys.test')).text);
    const reset = await t.post(`${AUTH}/password/challenge`, { code: token, password: 'Nueva2026', ...device });
    expect(reset.statusCode, reset.body).toBe(200);
    const body = json<{ challenge: string; method: string; accessToken?: string }>(reset);
    expect(body).toMatchObject({ method: 'passkey', passkey: true });
    expect(body.accessToken).toBeUndefined();
    const options = json<Options>(await t.post(`${SF}/login/passkey/options`, { challenge: body.challenge }));
    const res = await t.post(`${SF}/login/passkey`, {
      challenge: body.challenge,
      response: key.assert(memberKey, options.challenge),
      ...device,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toMatchObject({ userId: member.userId });
  });
});
