import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  DEFAULT_TIME_ZONE,
  historyDraftBody,
  historyDraftResponse,
  historyEntryBody,
  historyEntryResponse,
  historyRevisionResponse,
  isIsoDay,
  msg,
  patientIdParams,
  todayIn,
} from '@divan/core';
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { readUpload } from '../../platform/http/upload';
import type { HistoryService } from './history.service';
import { caller } from '../../platform/auth/caller';

const tags = ['history'];
const H = '/api/v1/workspaces/:workspaceId/patients/:patientId/history';
const DOCX_MAX_BYTES = 10 * 1024 * 1024;

export async function historyRoutes(app: FastifyInstance, { history }: { history: HistoryService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const entryParams = patientIdParams.extend({ entryId: z.uuid() });

  r.get(
    H,
    {
      config: { access: { workspace: ['read', 'patient_histories'] } },
      schema: { operationId: 'listHistory', tags, params: patientIdParams, response: { 200: z.array(historyEntryResponse) } },
    },
    (req) => history.list(caller(req), req.params.patientId),
  );
  r.post(
    H,
    {
      config: { access: { workspace: ['create', 'patient_histories'] } },
      schema: {
        operationId: 'createHistoryEntry',
        tags,
        params: patientIdParams,
        body: historyEntryBody,
        response: { 201: historyEntryResponse },
      },
    },
    async (req, reply) => reply.status(201).send(await history.create(caller(req), req.params.patientId, req.body)),
  );
  r.post(
    `${H}/import-docx`,
    {
      config: { access: { workspace: ['create', 'patient_histories'] } },
      schema: {
        operationId: 'importHistoryDocx',
        tags,
        description: 'Multipart: `file` (.docx) and optional `date` (YYYY-MM-DD, default today).',
        consumes: ['multipart/form-data'],
        params: patientIdParams,
        response: { 201: historyEntryResponse },
      },
    },
    async (req, reply) => {
      const { file, fields } = await readUpload(req, { maxBytes: DOCX_MAX_BYTES });
      let date = todayIn(DEFAULT_TIME_ZONE);
      if (fields.date) {
        // A date that is not in the calendar (2024-02-30) is refused, not silently replaced by today.
        if (!isIsoDay(fields.date))
          throw new AppError('invalid_argument', [{ path: 'date', message: msg.invalidDate() }], msg.invalidDate());
        date = fields.date;
      }
      if (!file) throw new AppError('invalid_docx_file');
      return reply.status(201).send(await history.importDocx(caller(req), req.params.patientId, file.data, file.filename, date));
    },
  );
  r.put(
    `${H}/:entryId`,
    {
      config: { access: { workspace: ['update', 'patient_histories'] } },
      schema: {
        operationId: 'updateHistoryEntry',
        tags,
        params: entryParams,
        body: historyEntryBody,
        response: { 200: historyEntryResponse },
      },
    },
    (req) => history.update(caller(req), req.params.patientId, req.params.entryId, req.body),
  );
  r.delete(
    `${H}/:entryId`,
    {
      config: { access: { workspace: ['delete', 'patient_histories'] } },
      schema: { operationId: 'deleteHistoryEntry', tags, params: entryParams, response: { 204: z.null() } },
    },
    async (req, reply) => {
      await history.delete(caller(req), req.params.patientId, req.params.entryId);
      return reply.status(204).send(null);
    },
  );
  // Drafts: the caller's own unsaved entries, with the permission of the write they prepare.
  r.get(
    `${H}/drafts`,
    {
      config: { access: { workspace: ['read', 'patient_histories'] } },
      schema: {
        operationId: 'listHistoryDrafts',
        tags,
        description: "The caller's own unsaved entries for this patient (new and edits).",
        params: patientIdParams,
        response: { 200: z.array(historyDraftResponse) },
      },
    },
    (req) => history.drafts(caller(req), req.params.patientId),
  );
  r.put(
    `${H}/draft`,
    {
      config: { access: { workspace: ['create', 'patient_histories'] } },
      schema: {
        operationId: 'saveNewHistoryEntryDraft',
        tags,
        params: patientIdParams,
        body: historyDraftBody,
        response: { 200: historyDraftResponse },
      },
    },
    (req) => history.saveDraft(caller(req), req.params.patientId, null, req.body),
  );
  r.delete(
    `${H}/draft`,
    {
      config: { access: { workspace: ['create', 'patient_histories'] } },
      schema: { operationId: 'discardNewHistoryEntryDraft', tags, params: patientIdParams, response: { 204: z.null() } },
    },
    async (req, reply) => {
      await history.discardDraft(caller(req), req.params.patientId, null);
      return reply.status(204).send(null);
    },
  );
  r.put(
    `${H}/:entryId/draft`,
    {
      config: { access: { workspace: ['update', 'patient_histories'] } },
      schema: {
        operationId: 'saveHistoryEntryEditDraft',
        tags,
        params: entryParams,
        body: historyDraftBody,
        response: { 200: historyDraftResponse },
      },
    },
    (req) => history.saveDraft(caller(req), req.params.patientId, req.params.entryId, req.body),
  );
  r.delete(
    `${H}/:entryId/draft`,
    {
      config: { access: { workspace: ['update', 'patient_histories'] } },
      schema: { operationId: 'discardHistoryEntryEditDraft', tags, params: entryParams, response: { 204: z.null() } },
    },
    async (req, reply) => {
      await history.discardDraft(caller(req), req.params.patientId, req.params.entryId);
      return reply.status(204).send(null);
    },
  );
  r.get(
    `${H}/:entryId/revisions`,
    {
      config: { access: { workspace: ['read', 'patient_histories'] } },
      schema: { operationId: 'listHistoryRevisions', tags, params: entryParams, response: { 200: z.array(historyRevisionResponse) } },
    },
    (req) => history.revisions(caller(req), req.params.patientId, req.params.entryId),
  );
}
