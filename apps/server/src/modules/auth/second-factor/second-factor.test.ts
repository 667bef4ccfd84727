import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { generate } from 'otplib';
import { AUTH, createTestApp, device, json, type TestApp } from '../../../test/test-app';
import { loginCode, signIn } from '../../../test/auth-flows';
import { addMember, createPatient, createWorkspace, therapist, type Therapist } from '../../../test/workspace-fixtures';

/**
 * Issue 32, the second factor: an authenticator app (TOTP) enrolled with one code, codes used once, recovery codes,
 * signing in with it, the workspace policy «Segundo factor obligatorio» and step-up. One app for the whole file.
 * Only `Date` is faked: each code is computed one time step (30 s) after the last, as a phone would show it.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
}, 60_000);
afterAll(async () => {
  vi.useRealTimers();
  await t?.close();
});

const SF = `${AUTH}/second-factor`;
const db = () => t.app.services.database.db;
const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;
const codeOf = (res: { json(): unknown }) => (res.json() as { code?: string }).code;
const expectError = (res: { statusCode: number; json(): unknown }, status: number, code: string) => {
  expect({ status: res.statusCode, code: codeOf(res) }).toEqual({ status, code });
  expect((res.json() as { message: string }).message).toMatch(/[a-záéíóúñ]/i);
};
/** The app's code one step later than the last one used. */
const nextCode = async (secret: string) => {
  vi.setSystemTime(Date.now() + 30_000);
  return generate({ secret });
};
/** A code the app does not show now, nor one step either side. */
const wrongCode = async (secret: string) => {
  const near = await Promise.all([-30, 0, 30].map((d) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + d })));
  return ['000000', '111111', '222222', '333333'].find((c) => !near.includes(c))!;
};

/** Starts and confirms enrolment: the secret and the ten recovery codes. */
async function enrol(who: { accessToken: string }) {
  const started = await t.post(`${SF}/totp`, undefined, { token: who.accessToken });
  expect(started.statusCode).toBe(200);
  const { secret } = json<{ secret: string }>(started);
  const confirmed = await t.post(`${SF}/totp/confirm`, { code: await nextCode(secret) }, { token: who.accessToken });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { secret, recoveryCodes: json<{ recoveryCodes: string[] }>(confirmed).recoveryCodes };
}

async function passwordStep(email: string) {
  const res = await t.post(`${AUTH}/code`, { email, password: 'Consulta2026' });
  expect(res.statusCode, res.body).toBe(200);
  return json<{ challenge: string; method: 'email' | 'totp' }>(res);
}
const secondStep = (challenge: string, answer: { code?: string; recoveryCode?: string }) =>
  t.post(`${SF}/login`, { challenge, ...answer, ...device });

describe('the authenticator app', () => {
  let ana: Therapist;
  let secret: string;
  let recoveryCodes: string[];

  it('enrols with a QR and the manual key, confirmed by one code; a wrong code is refused in Spanish', async () => {
    ana = await therapist(t, 'ana@2fa.test', 'Ana');
    const started = await t.post(`${SF}/totp`, undefined, { token: ana.accessToken });
    expect(started.statusCode).toBe(200);
    const body = json<{ secret: string; uri: string; qrDataUrl: string }>(started);
    secret = body.secret;
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(body.uri).toMatch(/^otpauth:\/\/totp\/Div%C3%A1n:ana%402fa\.test\?.*secret=/);
    expect(body.qrDataUrl).toMatch(/^data:image\/png;base64,/);
    // Pending: not yet a factor.
    expect(json(await t.get(SF, { token: ana.accessToken }))).toMatchObject({ totp: false });

    const wrong = await t.post(`${SF}/totp/confirm`, { code: await wrongCode(secret) }, { token: ana.accessToken });
    expectError(wrong, 400, 'invalid_code');
    expect(json<{ message: string }>(wrong).message).toBe('El código no es correcto.');

    const ok = await t.post(`${SF}/totp/confirm`, { code: await nextCode(secret) }, { token: ana.accessToken });
    expect(ok.statusCode, ok.body).toBe(200);
    recoveryCodes = json<{ recoveryCodes: string[] }>(ok).recoveryCodes;
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect(recoveryCodes[0]).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    expect(json(await t.get(SF, { token: ana.accessToken }))).toMatchObject({ totp: true, recoveryCodesLeft: 10 });
    expectError(await t.post(`${SF}/totp`, undefined, { token: ana.accessToken }), 409, 'totp_already_enrolled');
  });

  it('keeps the secret encrypted and the recovery codes hashed at rest', async () => {
    const [row] = rowsOf<{ secret_enc: string }>(await db().execute(sql`select secret_enc from totp_authenticators`));
    expect(row!.secret_enc).toMatch(/^v2:/);
    expect(row!.secret_enc).not.toContain(secret);
    const hashes = rowsOf<{ code_hash: string }>(await db().execute(sql`select code_hash from recovery_codes`)).map((r) => r.code_hash);
    expect(hashes).toHaveLength(10);
    for (const c of recoveryCodes) for (const h of hashes) expect(h).not.toContain(c.replace('-', ''));
  });

  it('refuses a code used once a second time', async () => {
    const code = await nextCode(secret);
    expect((await t.post(`${SF}/step-up`, { code }, { token: ana.accessToken })).statusCode).toBe(200);
    expectError(await t.post(`${SF}/step-up`, { code }, { token: ana.accessToken }), 400, 'code_already_used');
  });

  it('signs in with the app’s code instead of a mailed one', async () => {
    const mailsBefore = (await t.app.services.mailer.list('ana@2fa.test', 100)).length;
    const { challenge, method } = await passwordStep('ana@2fa.test');
    expect(method).toBe('totp');
    expect((await t.app.services.mailer.list('ana@2fa.test', 100)).length).toBe(mailsBefore);
    // The mailed code's route does not answer this challenge.
    expectError(await t.post(`${AUTH}/login`, { challenge, code: '123456', ...device }), 404, 'challenge_not_found');
    expectError(await secondStep(challenge, { code: await wrongCode(secret) }), 400, 'invalid_code');
    const res = await secondStep(challenge, { code: await nextCode(secret) });
    expect(res.statusCode, res.body).toBe(200);
    const tokens = json<{ accessToken: string }>(res);
    expect((await t.get('/api/v1/workspaces', { token: tokens.accessToken })).statusCode).toBe(200);
    // The challenge is spent.
    expectError(await secondStep(challenge, { code: await nextCode(secret) }), 404, 'challenge_not_found');
  });

  it('limits the attempts of a sign-in like a mailed code', async () => {
    const { challenge } = await passwordStep('ana@2fa.test');
    for (let i = 0; i < 5; i++) expectError(await secondStep(challenge, { code: await wrongCode(secret) }), 400, 'invalid_code');
    expectError(await secondStep(challenge, { code: await nextCode(secret) }), 429, 'max_attempts');
  });

  it('signs in with a recovery code, each once', async () => {
    const first = await passwordStep('ana@2fa.test');
    const res = await secondStep(first.challenge, { recoveryCode: recoveryCodes[0]!.toUpperCase() });
    expect(res.statusCode, res.body).toBe(200);
    const again = await passwordStep('ana@2fa.test');
    expectError(await secondStep(again.challenge, { recoveryCode: recoveryCodes[0]! }), 400, 'invalid_code');
    expect((await secondStep(again.challenge, { recoveryCode: recoveryCodes[1]!.replace('-', '') })).statusCode).toBe(200);
    expect(json(await t.get(SF, { token: ana.accessToken }))).toMatchObject({ recoveryCodesLeft: 8 });
  });

  it('regenerating the recovery codes voids the old ones', async () => {
    const res = await t.post(`${SF}/recovery-codes`, undefined, { token: ana.accessToken });
    expect(res.statusCode, res.body).toBe(200);
    const fresh = json<{ recoveryCodes: string[] }>(res).recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(recoveryCodes[2]);
    const step = await passwordStep('ana@2fa.test');
    expectError(await secondStep(step.challenge, { recoveryCode: recoveryCodes[2]! }), 400, 'invalid_code');
    expect((await secondStep(step.challenge, { recoveryCode: fresh[0]! })).statusCode).toBe(200);
    expect(json(await t.get(SF, { token: ana.accessToken }))).toMatchObject({ recoveryCodesLeft: 9 });
  });

  it('an account with nothing else still signs in with the mailed code', async () => {
    await therapist(t, 'beto@2fa.test', 'Beto');
    const { challenge, method } = await passwordStep('beto@2fa.test');
    expect(method).toBe('email');
    const code = loginCode((await t.lastMail('beto@2fa.test')).text);
    expectError(await secondStep(challenge, { code }), 404, 'challenge_not_found');
    expect((await t.post(`${AUTH}/login`, { challenge, code, ...device })).statusCode).toBe(200);
  });
});

describe('«Segundo factor obligatorio» and step-up', () => {
  let owner: Therapist & { secret: string };
  let member: Therapist;
  let other: Therapist;
  let workspaceId: string;
  let role: string;
  let otherWorkspaceId: string;
  const policyUrl = () => `/api/v1/workspaces/${workspaceId}/second-factor-policy`;
  const stale = (token: string) => {
    const sid = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string };
    return db().execute(sql`update device_sessions set second_factor_at = now() - interval '11 minutes' where id = ${sid.sid}`);
  };
  const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { enrol?: boolean };

  beforeAll(async () => {
    const o = await therapist(t, 'olga@2fa.test', 'Olga');
    member = await therapist(t, 'mario@2fa.test', 'Mario');
    other = await therapist(t, 'otra@2fa.test', 'Otra');
    const ws = await createWorkspace(t, o, 'Clínica Segura', 'clinic');
    workspaceId = ws.id;
    await t.app.services.workspaces.setPlan(workspaceId, { id: 'team', seats: 10 });
    role = ws.roles.find((r) => r.name === 'Administrador')!.id;
    await addMember(t, o, workspaceId, member, [role]);
    // Another workspace with the policy off, whose member must be unaffected.
    otherWorkspaceId = (await createWorkspace(t, other, 'Consulta Abierta', 'team')).id;
    owner = { ...o, secret: '' };
  });

  it('the owner must have an authenticator before requiring one; a member may not set the policy', async () => {
    expectError(await t.put(policyUrl(), { required: true }, { token: owner.accessToken }), 409, 'second_factor_policy_own_first');
    expectError(await t.put(policyUrl(), { required: true }, { token: member.accessToken }), 403, 'workspace_not_owner');
    owner.secret = (await enrol(owner)).secret;
    const res = await t.put(policyUrl(), { required: true }, { token: owner.accessToken });
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toMatchObject({ required: true, membersWithout: [{ email: 'mario@2fa.test', name: 'Mario' }] });
    const audit = json<{ action: string }[]>(await t.get(`/api/v1/workspaces/${workspaceId}/audit-events`, { token: owner.accessToken }));
    expect(audit.map((e) => e.action)).toEqual(expect.arrayContaining(['second_factor_policy.enabled', 'second_factor.enabled']));
  });

  it('blocks a member without one at their next sign-in until they enrol; another workspace’s member is unaffected', async () => {
    const session = await signIn(t, 'mario@2fa.test');
    expect(claims(session.accessToken).enrol).toBe(true);
    expectError(await t.get('/api/v1/workspaces', { token: session.accessToken }), 403, 'second_factor_enrolment_required');
    expectError(await t.get(`/api/v1/workspaces/${workspaceId}`, { token: session.accessToken }), 403, 'second_factor_enrolment_required');
    expect(json(await t.get(SF, { token: session.accessToken }))).toMatchObject({ totp: false, enrolmentRequired: true });
    // A refresh keeps the restriction; signing out stays possible.
    const refreshed = await t.get(`${AUTH}/token`, { token: session.refreshToken });
    expect(claims(json<{ accessToken: string }>(refreshed).accessToken).enrol).toBe(true);

    const outsider = await signIn(t, 'otra@2fa.test');
    expect(claims(outsider.accessToken).enrol).toBeUndefined();
    expect((await t.get('/api/v1/workspaces', { token: outsider.accessToken })).statusCode).toBe(200);

    const refreshToken = json<{ refreshToken: string }>(refreshed).refreshToken;
    await enrol(json<{ accessToken: string }>(refreshed));
    const after = json<{ accessToken: string }>(await t.get(`${AUTH}/token`, { token: refreshToken }));
    expect(claims(after.accessToken).enrol).toBeUndefined();
    expect((await t.get('/api/v1/workspaces', { token: after.accessToken })).statusCode).toBe(200);
    expect(json(await t.get(policyUrl(), { token: owner.accessToken }))).toMatchObject({ membersWithout: [] });
    // While the policy holds, the member may not remove their authenticator.
    expectError(await t.del(`${SF}/totp`, { token: after.accessToken }), 409, 'second_factor_policy_required');
  });

  it('with the policy on, every route but the enrolment and signing out refuses a member still to enrol', async () => {
    await therapist(t, 'nuevo@2fa.test', 'Nuevo').then((n) => addMember(t, owner, workspaceId, n, [role]));
    const session = await signIn(t, 'nuevo@2fa.test');
    // Enrolling: the authenticator app, or a passkey (listed, its options, registered).
    const passkeys = `${AUTH}/passkeys`;
    const exempt = new Set([
      `GET ${SF}`,
      `POST ${SF}/totp`,
      `POST ${SF}/totp/confirm`,
      `GET ${passkeys}`,
      `POST ${passkeys}/options`,
      `POST ${passkeys}`,
    ]);
    const routes = t.app.declaredRoutes().filter((r) => r.method !== 'HEAD' && (r.access === 'user' || typeof r.access === 'object'));
    expect(routes.length).toBeGreaterThan(50);
    for (const r of routes) {
      const url = r.url.replace(':workspaceId', workspaceId).replace(/:(\w+)/g, () => crypto.randomUUID());
      const res = await t.app.inject({ method: r.method as 'GET', url, headers: { authorization: `Bearer ${session.accessToken}` } });
      const label = `${r.method} ${r.url}`;
      if (exempt.has(label)) expect([label, codeOf(res)]).not.toEqual([label, 'second_factor_enrolment_required']);
      else expect([label, res.statusCode, codeOf(res)]).toEqual([label, 403, 'second_factor_enrolment_required']);
    }
    expect((await t.del(`${AUTH}/sessions`, { token: session.refreshToken })).statusCode).toBe(204);
  });

  it('step-up: exporting a patient and turning the policy off need a second factor within the last 10 minutes', async () => {
    const patientId = await createPatient(t, owner, workspaceId, { firstName: 'Paula', lastName: 'Prueba' });
    const exportUrl = `/api/v1/workspaces/${workspaceId}/patients/${patientId}/export.json`;
    await stale(owner.accessToken);
    expectError(await t.get(exportUrl, { token: owner.accessToken }), 403, 'step_up_required');
    expectError(await t.put(policyUrl(), { required: false }, { token: owner.accessToken }), 403, 'step_up_required');
    expectError(await t.post(`${SF}/step-up`, { code: await wrongCode(owner.secret) }, { token: owner.accessToken }), 400, 'invalid_code');
    expect((await t.post(`${SF}/step-up`, { code: await nextCode(owner.secret) }, { token: owner.accessToken })).statusCode).toBe(200);
    expect((await t.get(exportUrl, { token: owner.accessToken })).statusCode).toBe(200);
    const off = await t.put(policyUrl(), { required: false }, { token: owner.accessToken });
    expect(off.statusCode, off.body).toBe(200);
    expect(json(off)).toMatchObject({ required: false });
    const audit = json<{ action: string }[]>(await t.get(`/api/v1/workspaces/${workspaceId}/audit-events`, { token: owner.accessToken }));
    expect(audit.map((e) => e.action)).toContain('second_factor_policy.disabled');
    // Off: a member who never enrolled reaches the workspace again (past the minute between two mailed codes).
    await db().execute(sql`update auth_challenges set created_at = created_at - interval '61 seconds'`);
    const again = await signIn(t, 'nuevo@2fa.test');
    expect(claims(again.accessToken).enrol).toBeUndefined();
    expect((await t.get(`/api/v1/workspaces/${workspaceId}`, { token: again.accessToken })).statusCode).toBe(200);
  });

  it('step-up of an account without an app: a mailed code', async () => {
    const patientId = await createPatient(t, other, otherWorkspaceId, { firstName: 'Pedro', lastName: 'Prueba' });
    const exportUrl = `/api/v1/workspaces/${otherWorkspaceId}/patients/${patientId}/export.json`;
    await stale(other.accessToken);
    expectError(await t.get(exportUrl, { token: other.accessToken }), 403, 'step_up_required');
    await db().execute(sql`update auth_challenges set created_at = created_at - interval '61 seconds'`);
    const started = await t.post(`${SF}/step-up/email`, undefined, { token: other.accessToken });
    expect(started.statusCode, started.body).toBe(200);
    const { challenge } = json<{ challenge: string }>(started);
    const mail = await t.lastMail('otra@2fa.test');
    expect(mail.subject).toBe('Confirma que eres tú en Diván');
    const code = loginCode(mail.text);
    // Another person's session cannot use it.
    expectError(await t.post(`${SF}/step-up`, { challenge, code }, { token: member.accessToken }), 404, 'challenge_not_found');
    expect((await t.post(`${SF}/step-up`, { challenge, code }, { token: other.accessToken })).statusCode).toBe(200);
    expect((await t.get(exportUrl, { token: other.accessToken })).statusCode).toBe(200);
  });
});
