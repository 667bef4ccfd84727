import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  deviceInfo,
  loginBody,
  loginChallengeResponse,
  patientAuthTokensResponse,
  patientConnectBody,
  patientConnectedResponse,
  patientFileParams,
  patientFilesResponse,
  patientLoginChallengeBody,
  patientProfile,
  refreshResponse,
  userAgentOf,
  type DeviceInfo,
} from '@divan/core';
import { z } from 'zod';
import type { PatientAccountsService } from './patient-accounts.service';
import type { PatientConnectService } from './patient-connect.service';

const REALM = '/api/v1/realms/patients';
const tags = ['patient-accounts'];
const noContent = { 204: z.null().describe('No content') };

export const sessionContext = (req: FastifyRequest) => ({ ip: req.ip, userAgent: userAgentOf(req.headers['user-agent']) });
export const deviceOf = ({ appVersion, deviceManufacturer, deviceModel, platformType, platformVersion }: DeviceInfo): DeviceInfo => ({
  appVersion,
  deviceManufacturer,
  deviceModel,
  platformType,
  platformVersion,
});

/**
 * The patients' realm (issue 15), beside the therapists' of spec §7: two-step sign-in with a mailed
 * code, refresh and logout; and the patient's own routes under `/api/v1/patient`, each scoped by the
 * files connected to the signed-in account.
 */
export async function patientAccountsRoutes(
  app: FastifyInstance,
  opts: { accounts: PatientAccountsService; connect: PatientConnectService; perIpPerMinute: number },
) {
  const { accounts, connect } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const pub = { access: 'public' as const, rateLimit: { max: opts.perIpPerMinute, timeWindow: 60_000 } };
  const refresh = { access: 'refresh' as const, rateLimit: { max: opts.perIpPerMinute, timeWindow: 60_000 } };
  const patient = { access: 'patient' as const };

  r.post(
    `${REALM}/login/challenge`,
    {
      config: pub,
      schema: {
        operationId: 'startPatientLogin',
        tags,
        description: 'Mails a sign-in code when the email has an account; the answer is the same when it has none.',
        body: patientLoginChallengeBody,
        response: { 200: loginChallengeResponse },
      },
    },
    (req) => accounts.startLogin(req.body.email),
  );
  r.post(
    `${REALM}/login`,
    { config: pub, schema: { operationId: 'patientLogin', tags, body: loginBody, response: { 200: patientAuthTokensResponse } } },
    (req) => accounts.login(req.body.challenge, req.body.code, deviceOf(req.body), sessionContext(req)),
  );
  r.get(
    `${REALM}/token`,
    {
      config: refresh,
      schema: {
        operationId: 'refreshPatientToken',
        tags,
        description: 'Refresh token as bearer; device info as query.',
        querystring: deviceInfo,
        response: { 200: refreshResponse },
      },
    },
    (req) => accounts.refresh(req.bearer!, deviceOf(req.query), sessionContext(req)),
  );
  r.delete(
    `${REALM}/sessions`,
    { config: refresh, schema: { operationId: 'patientLogout', tags, description: 'Refresh token as bearer.', response: noContent } },
    async (req, reply) => {
      await accounts.logout(req.bearer!);
      return reply.status(204).send(null);
    },
  );
  r.post(
    `${REALM}/connect`,
    {
      config: patient,
      schema: {
        operationId: 'acceptPatientConnect',
        tags,
        description: 'Accepts a connect invitation sent to the account’s email.',
        body: patientConnectBody,
        response: { 200: patientConnectedResponse },
      },
    },
    (req) => connect.connect(req.patient!.accountId, req.body.token),
  );

  r.get(
    '/api/v1/patient/me',
    {
      config: patient,
      schema: { operationId: 'getPatientMe', tags, description: 'The signed-in patient account.', response: { 200: patientProfile } },
    },
    (req) => accounts.me(req.patient!.accountId),
  );
  r.get(
    '/api/v1/patient/files',
    { config: patient, schema: { operationId: 'listPatientFiles', tags, response: { 200: patientFilesResponse } } },
    async (req) => ({ items: await accounts.files(req.patient!.accountId) }),
  );
  r.delete(
    '/api/v1/patient/files/:patientFileId',
    { config: patient, schema: { operationId: 'disconnectPatientFile', tags, params: patientFileParams, response: noContent } },
    async (req, reply) => {
      await accounts.disconnect(req.patient!.accountId, req.params.patientFileId);
      return reply.status(204).send(null);
    },
  );
}
