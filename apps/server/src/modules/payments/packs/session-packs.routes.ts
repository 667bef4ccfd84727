import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createPackBody, packIdParams, packListResponse, packResponse, patientIdParams, refundPackBody } from '@divan/core';
import { caller } from '../../../platform/auth/caller';
import type { SessionPacks } from './session-packs.service';

const tags = ['payments'];
const P = '/api/v1/workspaces/:workspaceId/patients/:patientId/packs';

/** A patient's session packs (bonos): list, sell (with its invoice), refund the unused part. */
export async function sessionPacksRoutes(app: FastifyInstance, { packs }: { packs: SessionPacks }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    P,
    {
      config: { access: { workspace: ['read', 'patient_billing'] } },
      schema: { operationId: 'listPatientPacks', tags, params: patientIdParams, response: { 200: packListResponse } },
    },
    (req) => packs.list(caller(req), req.params.patientId),
  );
  r.post(
    P,
    {
      config: { access: { workspace: ['update', 'patient_billing'] } },
      schema: {
        operationId: 'sellPatientPack',
        tags,
        description: 'Sells a pack: its invoice is issued at once (paid then by card or by hand).',
        params: patientIdParams,
        body: createPackBody,
        response: { 201: packResponse },
      },
    },
    async (req, reply) => reply.status(201).send(await packs.sell(caller(req), req.params.patientId, req.body)),
  );
  r.post(
    `${P}/:packId/refund`,
    {
      config: { access: { workspace: ['update', 'patient_billing'] } },
      schema: {
        operationId: 'refundPatientPack',
        tags,
        description: 'Refunds the sessions left: a rectifying invoice, and the card refund when it was paid by card.',
        params: packIdParams,
        body: refundPackBody,
        response: { 200: packResponse },
      },
    },
    (req) => packs.refund(caller(req), req.params.patientId, req.params.packId, req.body.reason),
  );
}
