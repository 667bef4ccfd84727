import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { device, json, type TestApp } from '../../test/test-app';

export const REALM = '/api/v1/realms/patients';
export const connectPath = (workspaceId: string, patientId: string) => `/api/v1/workspaces/${workspaceId}/patients/${patientId}/connect`;
export type PatientSession = { accountId: string; accessToken: string; refreshToken: string };

export const codeOf = (text: string) => /\b(\d{6})\b/.exec(text)![1]!;
export const linkTokenOf = (text: string) => /\/p\/connect\/([A-Za-z0-9_-]+)/.exec(text)![1]!;

export function expectError(res: LightMyRequestResponse, status: number, code: string) {
  expect([res.statusCode, json(res).code]).toEqual([status, code]);
}

/** The therapist invites `email` on the file; the link's token read from the mail. */
export async function invite(t: TestApp, token: string, workspaceId: string, patientId: string, email: string) {
  const res = await t.post(connectPath(workspaceId, patientId), { email }, { token });
  expect(res.statusCode, res.body).toBe(200);
  return linkTokenOf((await t.lastMail(email)).text);
}

/** From the link alone: the mailed code connects the file and signs the patient in. */
export async function acceptWithCode(t: TestApp, link: string, email: string) {
  const sent = await t.post(`/api/v1/public/patient-connect/${link}/code`);
  expect(sent.statusCode, sent.body).toBe(200);
  const code = codeOf((await t.lastMail(email)).text);
  const res = await t.post(`/api/v1/public/patient-connect/${link}`, { challenge: json(sent).challenge, code, ...device });
  expect(res.statusCode, res.body).toBe(200);
  return json<PatientSession & { file: { patientFileId: string } }>(res);
}

/** A patient connected to the file, signed in: the invitation and its code, as the patient would. */
export async function connectedPatient(t: TestApp, therapistToken: string, workspaceId: string, patientId: string, email: string) {
  return acceptWithCode(t, await invite(t, therapistToken, workspaceId, patientId, email), email);
}

/** Two-step sign-in of an existing patient account. */
export async function patientLogin(t: TestApp, email: string): Promise<PatientSession> {
  const started = await t.post(`${REALM}/login/challenge`, { email });
  expect(started.statusCode, started.body).toBe(200);
  const code = codeOf((await t.lastMail(email)).text);
  const res = await t.post(`${REALM}/login`, { challenge: json(started).challenge, code, ...device });
  expect(res.statusCode, res.body).toBe(200);
  return json<PatientSession>(res);
}
