import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  administerMeasureBody,
  createMeasureScheduleBody,
  measureScheduleIdParams,
  measureScheduleResponse,
  updateMeasureScheduleBody,
  workspaceIdParams,
  answerMeasureBody,
  answerMeasureResponse,
  measureAdministrationResponse,
  measureFlagsResponse,
  measureIdParams,
  measureTokenParams,
  measureTrendResponse,
  patientIdParams,
  publicMeasureResponse,
  sendMeasureBody,
  sentMeasureResponse,
  type Action,
} from '@divan/core';
import { z } from 'zod';
import type { Access } from '../../platform/auth/access';
import { caller } from '../../platform/auth/caller';
import type { MeasureSchedulesService } from './measure-schedules.service';
import type { MeasuresService } from './measures.service';

const tags = ['measures'];
const M = '/api/v1/workspaces/:workspaceId/patients/:patientId/measures';
const S = '/api/v1/workspaces/:workspaceId/patients/:patientId/measure-schedules';
/** The clinical history's permission: results are clinical data (Recepción has none). */
const can = (action: Exclude<Action, 'manage'>): Access => ({ workspace: [action, 'patient_histories'] });

/** Outcome measures in the patient's file, and the patient's answer page by link (issue 32). */
export async function measuresRoutes(
  app: FastifyInstance,
  d: { measures: MeasuresService; schedules: MeasureSchedulesService; perIpPerMinute: number },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { measures, schedules } = d;

  r.get(
    M,
    {
      config: { access: can('read') },
      schema: {
        operationId: 'listMeasures',
        tags,
        description: "The patient's administrations, newest first, with their scores.",
        params: patientIdParams,
        response: { 200: z.array(measureAdministrationResponse) },
      },
    },
    (req) => measures.list(caller(req), req.params.patientId),
  );
  r.get(
    `${M}/trend`,
    {
      config: { access: can('read') },
      schema: {
        operationId: 'measureTrend',
        tags,
        description: 'Per measure and scale, the completed administrations in order, each classified against the first (Jacobson–Truax).',
        params: patientIdParams,
        response: { 200: measureTrendResponse },
      },
    },
    (req) => measures.trend(caller(req), req.params.patientId),
  );
  r.post(
    `${M}/send`,
    {
      config: { access: can('create') },
      schema: {
        operationId: 'sendMeasure',
        tags,
        description: 'Mails the patient a single-use link that expires in 7 days (reminded after 2); the link is returned to copy.',
        params: patientIdParams,
        body: sendMeasureBody,
        response: { 201: sentMeasureResponse },
      },
    },
    async (req, reply) => reply.status(201).send(await measures.send(caller(req), req.params.patientId, req.body.measure)),
  );
  r.post(
    `${M}/administer`,
    {
      config: { access: can('create') },
      schema: {
        operationId: 'administerMeasure',
        tags,
        description: 'In session: the therapist enters every answer; scored at once.',
        params: patientIdParams,
        body: administerMeasureBody,
        response: { 201: measureAdministrationResponse },
      },
    },
    async (req, reply) =>
      reply.status(201).send(await measures.administer(caller(req), req.params.patientId, req.body.measure, req.body.answers)),
  );
  r.post(
    `${M}/:administrationId/cancel`,
    {
      config: { access: can('update') },
      schema: { operationId: 'cancelMeasure', tags, params: measureIdParams, response: { 200: measureAdministrationResponse } },
    },
    (req) => measures.cancel(caller(req), req.params.patientId, req.params.administrationId),
  );
  r.post(
    `${M}/:administrationId/review`,
    {
      config: { access: can('update') },
      schema: {
        operationId: 'reviewMeasureFlag',
        tags,
        description: 'Marks the risk flag of an administration as reviewed.',
        params: measureIdParams,
        response: { 200: measureAdministrationResponse },
      },
    },
    (req) => measures.review(caller(req), req.params.patientId, req.params.administrationId),
  );

  r.get(
    '/api/v1/workspaces/:workspaceId/measure-flags',
    {
      config: { access: can('read') },
      schema: {
        operationId: 'listMeasureFlags',
        tags,
        description:
          "Risk answers not yet reviewed of the caller's patients (all, for who reads every history), newest first, at most 20: for the dashboard.",
        params: workspaceIdParams,
        response: { 200: measureFlagsResponse },
      },
    },
    (req) => measures.flags(caller(req)),
  );

  // Schedules tied to sessions: sent by the hourly sweep 24 h before each pending session the cadence picks.
  r.get(
    S,
    {
      config: { access: can('read') },
      schema: {
        operationId: 'listMeasureSchedules',
        tags,
        description: "The patient's measure schedules (active, paused and stopped), newest first.",
        params: patientIdParams,
        response: { 200: z.array(measureScheduleResponse) },
      },
    },
    (req) => schedules.schedules(caller(req), req.params.patientId),
  );
  r.post(
    S,
    {
      config: { access: can('create') },
      schema: {
        operationId: 'createMeasureSchedule',
        tags,
        description:
          'Sends the measure by itself 24 h before each pending session, every other one, or every N weeks (link and mail, as a send by hand). One open schedule per patient and measure.',
        params: patientIdParams,
        body: createMeasureScheduleBody,
        response: { 201: measureScheduleResponse },
      },
    },
    async (req, reply) => reply.status(201).send(await schedules.createSchedule(caller(req), req.params.patientId, req.body)),
  );
  r.patch(
    `${S}/:scheduleId`,
    {
      config: { access: can('update') },
      schema: {
        operationId: 'updateMeasureSchedule',
        tags,
        description: 'Changes the cadence, or pauses (`paused`) and resumes (`active`) it.',
        params: measureScheduleIdParams,
        body: updateMeasureScheduleBody,
        response: { 200: measureScheduleResponse },
      },
    },
    (req) => schedules.updateSchedule(caller(req), req.params.patientId, req.params.scheduleId, req.body),
  );
  r.post(
    `${S}/:scheduleId/stop`,
    {
      config: { access: can('update') },
      schema: {
        operationId: 'stopMeasureSchedule',
        tags,
        description: 'Stops it for good (it stays listed); nothing more is sent.',
        params: measureScheduleIdParams,
        response: { 200: measureScheduleResponse },
      },
    },
    (req) => schedules.stopSchedule(caller(req), req.params.patientId, req.params.scheduleId),
  );

  // The patient's page: no account, the token is the whole credential; rate limited per IP.
  const pub = { access: 'public' as const, rateLimit: { max: d.perIpPerMinute, timeWindow: 60_000 } };
  r.get(
    '/api/v1/public/measures/:token',
    {
      config: pub,
      schema: {
        operationId: 'getMeasureToAnswer',
        tags,
        description: 'Which measure the link opens (its items are the data of @divan/core); expired, used or cancelled links are refused.',
        params: measureTokenParams,
        response: { 200: publicMeasureResponse },
      },
    },
    (req) => measures.publicView(req.params.token),
  );
  r.post(
    '/api/v1/public/measures/:token/answers',
    {
      config: pub,
      schema: {
        operationId: 'answerMeasure',
        tags,
        description: 'Every item answered (a partial answer is refused, measure_incomplete); `crisisLine` says to show 024.',
        params: measureTokenParams,
        body: answerMeasureBody,
        response: { 200: answerMeasureResponse },
      },
    },
    (req) => measures.publicAnswer(req.params.token, req.body.answers),
  );
}
