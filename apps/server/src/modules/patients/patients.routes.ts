import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  accessLogResponse,
  assignPatientBody,
  createPatientBody,
  deletePatientResponse,
  instantSchema,
  patientIdParams,
  patientListQuery,
  patientListResponse,
  patientResponse,
  updatePatientBody,
  updateTreatmentBody,
  workspaceIdParams,
} from '@divan/core';
import { z } from 'zod';
import { caller } from '../../platform/auth/caller';
import type { PatientsService } from './patients.service';

const tags = ['patients'];
const W = '/api/v1/workspaces/:workspaceId';
const P = `${W}/patients/:patientId`;

export async function patientsRoutes(app: FastifyInstance, { patients }: { patients: PatientsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    `${W}/patients`,
    {
      config: { access: { workspace: ['read', 'patient_files'] } },
      schema: {
        operationId: 'listPatients',
        tags,
        params: workspaceIdParams,
        querystring: patientListQuery,
        response: { 200: patientListResponse },
      },
    },
    // Already JSON bytes (pages are cached serialised): a Buffer is sent as is, with the JSON content type.
    async (req, reply) => reply.type('application/json; charset=utf-8').send((await patients.listJson(caller(req), req.query)) as never),
  );
  r.post(
    `${W}/patients`,
    {
      config: { access: { workspace: ['create', 'patient_files'] } },
      schema: {
        operationId: 'createPatient',
        tags,
        params: workspaceIdParams,
        body: createPatientBody,
        response: { 201: patientResponse },
      },
    },
    async (req, reply) => reply.status(201).send(await patients.create(caller(req), req.body)),
  );
  r.get(
    P,
    {
      config: { access: { workspace: ['read', 'patient_files'] } },
      schema: { operationId: 'getPatient', tags, params: patientIdParams, response: { 200: patientResponse } },
    },
    (req) => patients.get(caller(req), req.params.patientId),
  );
  r.patch(
    P,
    {
      config: { access: { workspace: ['update', 'patient_files'] } },
      schema: { operationId: 'updatePatient', tags, params: patientIdParams, body: updatePatientBody, response: { 200: patientResponse } },
    },
    (req) => patients.updateInfo(caller(req), req.params.patientId, req.body),
  );
  r.put(
    `${P}/treatment`,
    {
      config: { access: { workspace: ['update', 'patient_treatment'] } },
      schema: {
        operationId: 'updateTreatment',
        tags,
        params: patientIdParams,
        body: updateTreatmentBody,
        response: { 200: patientResponse },
      },
    },
    (req) => patients.updateTreatment(caller(req), req.params.patientId, req.body),
  );
  r.put(
    `${P}/assignment`,
    {
      config: { access: { workspace: ['update', 'patient_assignment'] } },
      schema: { operationId: 'assignPatient', tags, params: patientIdParams, body: assignPatientBody, response: { 200: patientResponse } },
    },
    (req) => patients.assign(caller(req), req.params.patientId, req.body.therapistId),
  );
  r.delete(
    P,
    {
      config: { access: { workspace: ['delete', 'patient_files'] } },
      schema: {
        operationId: 'deletePatient',
        tags,
        description: 'Inside the 5-year retention period the patient is blocked, not erased; the answer says so.',
        params: patientIdParams,
        response: { 200: deletePatientResponse },
      },
    },
    (req) => patients.delete(caller(req), req.params.patientId),
  );
  r.get(
    `${W}/clinical-access-log`,
    {
      // Who read which patient's clinical data: for administrators.
      config: { access: { workspace: ['manage', 'roles'] } },
      schema: {
        operationId: 'listClinicalAccessLog',
        tags,
        params: workspaceIdParams,
        querystring: z.object({
          patientId: z.uuid().optional(),
          limit: z.coerce.number().int().min(1).max(200).default(50),
          before: instantSchema.optional(),
        }),
        response: { 200: z.array(accessLogResponse) },
      },
    },
    (req) => patients.accessLog(req.params.workspaceId, req.query.patientId, req.query.limit, req.query.before),
  );
}
