import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  loginBody,
  loginChallengeResponse,
  patientConnectedWithTokensResponse,
  patientConnectInvitation,
  patientConnectInviteBody,
  patientConnectStatus,
  patientConnectTokenParams,
  patientIdParams,
} from '@divan/core';
import { z } from 'zod';
import { caller } from '../../platform/auth/caller';
import type { PatientConnectService } from './patient-connect.service';
import { deviceOf, sessionContext } from './patient-accounts.routes';

const tags = ['patient-accounts'];
const P = '/api/v1/workspaces/:workspaceId/patients/:patientId/connect';
const LINK = '/api/v1/public/patient-connect/:token';
const noContent = { 204: z.null().describe('No content') };

/** Connecting a patient's file to the patient's account: the therapist's side on the file, the link's public side. */
export async function patientConnectRoutes(app: FastifyInstance, opts: { connect: PatientConnectService; perIpPerMinute: number }) {
  const { connect } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const pub = { access: 'public' as const, rateLimit: { max: opts.perIpPerMinute, timeWindow: 60_000 } };

  r.get(
    P,
    {
      config: { access: { workspace: ['read', 'patient_files'] } },
      schema: { operationId: 'getPatientConnect', tags, params: patientIdParams, response: { 200: patientConnectStatus } },
    },
    (req) => connect.status(caller(req), req.params.patientId),
  );
  r.post(
    P,
    {
      config: { access: { workspace: ['update', 'patient_files'] } },
      schema: {
        operationId: 'invitePatientConnect',
        tags,
        description: 'Mails the patient a link to connect; a new invitation replaces the previous one.',
        params: patientIdParams,
        body: patientConnectInviteBody,
        response: { 200: patientConnectStatus },
      },
    },
    (req) => connect.invite(caller(req), req.params.patientId, req.body.email),
  );
  r.delete(
    P,
    {
      config: { access: { workspace: ['update', 'patient_files'] } },
      schema: {
        operationId: 'disconnectPatient',
        tags,
        description: 'Disconnects the file, or cancels its invitation.',
        params: patientIdParams,
        response: noContent,
      },
    },
    async (req, reply) => {
      await connect.disconnect(caller(req), req.params.patientId);
      return reply.status(204).send(null);
    },
  );

  r.get(
    LINK,
    {
      config: pub,
      schema: {
        operationId: 'getPatientConnectInvitation',
        tags,
        params: patientConnectTokenParams,
        response: { 200: patientConnectInvitation },
      },
    },
    (req) => connect.invitation(req.params.token),
  );
  r.post(
    `${LINK}/code`,
    {
      config: pub,
      schema: {
        operationId: 'mailPatientConnectCode',
        tags,
        description: 'Mails a sign-in code to the invited email (the account is made if there is none).',
        params: patientConnectTokenParams,
        response: { 200: loginChallengeResponse },
      },
    },
    (req) => connect.mailCode(req.params.token),
  );
  r.post(
    LINK,
    {
      config: pub,
      schema: {
        operationId: 'connectPatientWithCode',
        tags,
        description: 'The mailed code: the file is connected and the patient signed in.',
        params: patientConnectTokenParams,
        body: loginBody,
        response: { 200: patientConnectedWithTokensResponse },
      },
    },
    (req) => connect.connectWithCode(req.params.token, req.body.challenge, req.body.code, deviceOf(req.body), sessionContext(req)),
  );
}
