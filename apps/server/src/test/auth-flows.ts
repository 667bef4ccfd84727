import { AUTH, device, json, type TestApp } from './test-app';

export const PASSWORD = 'Consulta2026';

/** Real flows through the API, for tests of other features: a confirmed therapist, signed in. */
export async function signUpConfirmed(t: TestApp, email: string, firstName = 'Lucía', extra: { referralCode?: string } = {}) {
  const res = await t.post(`${AUTH}/users`, { firstName, email, password: PASSWORD, ...extra });
  if (res.statusCode !== 201) throw new Error(`sign-up failed: ${res.body}`);
  const token = linkToken((await t.lastMail(email)).text);
  const confirmed = await t.post(`${AUTH}/signup/challenge`, { code: token, ...device });
  if (confirmed.statusCode !== 200) throw new Error(`confirm failed: ${confirmed.body}`);
  return json<{ userId: string; accessToken: string; refreshToken: string }>(confirmed);
}

export async function signIn(t: TestApp, email: string, password = PASSWORD) {
  const started = await t.post(`${AUTH}/code`, { email, password });
  if (started.statusCode !== 200) throw new Error(`code failed: ${started.body}`);
  const { challenge } = json<{ challenge: string }>(started);
  const code = loginCode((await t.lastMail(email)).text);
  const res = await t.post(`${AUTH}/login`, { challenge, code, ...device });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`);
  return json<{ userId: string; accessToken: string; refreshToken: string }>(res);
}

export const linkToken = (text: string) => text.match(/\/(?:verify-email|reset-password)\/([\w-]+)/)![1]!;
export const loginCode = (text: string) => text.match(/\b(\d{6})\b/)![1]!;
