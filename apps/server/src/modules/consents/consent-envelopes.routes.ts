import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  consentEnvelopeIdParams,
  consentEnvelopeListQuery,
  consentEnvelopeListResponse,
  consentEnvelopeResponse,
  consentSendCheckParams,
  consentSendCheckResponse,
  consentTokenParams,
  patientIdParams,
  publicConsentResponse,
  sendConsentBody,
  sendConsentResponse,
  signConsentBody,
  signConsentResponse,
  workspaceIdParams,
  type Action,
} from '@divan/core';
import { z } from 'zod';
import type { Access } from '../../platform/auth/access';
import { contentDisposition } from '../../platform/http/content-disposition';
import { caller } from '../../platform/auth/caller';
import { metaOf } from '../../platform/http/request-meta';
import type { ConsentEnvelopesService } from './consent-envelopes.service';
import type { ConsentSigningService } from './consent-signing.service';

const tags = ['consents'];
const C = '/api/v1/workspaces/:workspaceId/consents';
const can = (action: Exclude<Action, 'manage'>): Access => ({ workspace: [action, 'sent_consents'] });

/** Sent consents (spec §2 `/consents` and the patient's `consents` tab), and the public signing page's calls. */
export async function consentEnvelopesRoutes(
  app: FastifyInstance,
  d: { envelopes: ConsentEnvelopesService; signing: ConsentSigningService; perIpPerMinute: number },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { envelopes, signing } = d;

  r.get(
    C,
    {
      config: { access: can('read') },
      schema: {
        operationId: 'listSentConsents',
        tags,
        description: 'Newest first; filters by state, patient and template.',
        params: workspaceIdParams,
        querystring: consentEnvelopeListQuery,
        response: { 200: consentEnvelopeListResponse },
      },
    },
    (req) => envelopes.list(caller(req), req.query),
  );
  r.get(
    '/api/v1/workspaces/:workspaceId/patients/:patientId/consents',
    {
      config: { access: can('read') },
      schema: {
        operationId: 'listPatientConsents',
        tags,
        params: patientIdParams,
        querystring: consentEnvelopeListQuery.omit({ patientId: true }),
        response: { 200: consentEnvelopeListResponse },
      },
    },
    (req) => envelopes.list(caller(req), req.query, req.params.patientId),
  );
  r.post(
    C,
    {
      config: { access: can('create') },
      schema: {
        operationId: 'sendConsent',
        tags,
        description:
          "Sends the template's current version: a patient of 16 or more signs; a younger one's two guardians, or only the first with the art. 156 exception. The first signer is mailed now, a second guardian once the first has signed; every link is returned to copy.",
        params: workspaceIdParams,
        body: sendConsentBody,
        response: { 201: sendConsentResponse },
      },
    },
    async (req, reply) => reply.status(201).send(await envelopes.send(caller(req), req.body, metaOf(req))),
  );
  r.get(
    '/api/v1/workspaces/:workspaceId/patients/:patientId/consents/check/:templateId',
    {
      config: { access: can('create') },
      schema: {
        operationId: 'checkConsentSending',
        tags,
        description:
          "Before sending: the template's variables this patient and this sender have no value for (a therapist without registration number). Sending them blank needs `confirmMissing` (consent_variables_missing otherwise).",
        params: consentSendCheckParams,
        response: { 200: consentSendCheckResponse },
      },
    },
    (req) => envelopes.check(caller(req), req.params),
  );
  r.get(
    `${C}/:consentId`,
    {
      config: { access: can('read') },
      schema: { operationId: 'getSentConsent', tags, params: consentEnvelopeIdParams, response: { 200: consentEnvelopeResponse } },
    },
    (req) => envelopes.get(caller(req), req.params.consentId),
  );
  r.post(
    `${C}/:consentId/revoke`,
    {
      config: { access: can('update') },
      schema: {
        operationId: 'revokeSentConsent',
        tags,
        description: 'Its links stop working; a signed one cannot be revoked (consent_already_signed).',
        params: consentEnvelopeIdParams,
        response: { 200: consentEnvelopeResponse },
      },
    },
    (req) => envelopes.revoke(caller(req), req.params.consentId, metaOf(req)),
  );
  r.get(
    `${C}/:consentId/pdf`,
    {
      config: { access: can('read') },
      schema: {
        operationId: 'downloadSignedConsent',
        tags,
        description: 'The sealed PDF (with its evidence page) once every signature is in.',
        params: consentEnvelopeIdParams,
        querystring: z.object({ disposition: z.enum(['attachment', 'inline']).default('attachment') }),
      },
    },
    async (req, reply) => {
      const file = await envelopes.pdf(caller(req), req.params.consentId);
      reply.header('content-disposition', contentDisposition(file.name, req.query.disposition));
      reply.header('cache-control', 'private, no-store');
      reply.header('x-content-type-options', 'nosniff');
      return reply.type('application/pdf').send(file.pdf);
    },
  );

  // The signing page: no account, the token is the whole credential; rate limited per IP.
  const pub = { access: 'public' as const, rateLimit: { max: d.perIpPerMinute, timeWindow: 60_000 } };
  r.get(
    '/api/v1/public/consents/:token',
    {
      config: pub,
      schema: {
        operationId: 'getConsentToSign',
        tags,
        description: 'The document one signer is to sign; the first view is recorded (opened).',
        params: consentTokenParams,
        response: { 200: publicConsentResponse },
      },
    },
    (req) => signing.view(req.params.token, metaOf(req)),
  );
  r.post(
    '/api/v1/public/consents/:token/sign',
    {
      config: pub,
      schema: {
        operationId: 'signConsent',
        tags,
        description: "One signer's data, ticked boxes and signature (drawn PNG or typed name).",
        params: consentTokenParams,
        body: signConsentBody,
        response: { 200: signConsentResponse },
      },
    },
    (req) => signing.sign(req.params.token, req.body, metaOf(req)),
  );
}
