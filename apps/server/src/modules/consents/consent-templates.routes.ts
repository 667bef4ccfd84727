import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  READY_MADE_CONSENT_KEYS,
  consentTemplateIdParams,
  consentTemplateListQuery,
  consentTemplateListResponse,
  consentTemplateQuery,
  consentTemplateResponse,
  consentTemplateVersionSummary,
  copyReadyMadeBody,
  createConsentTemplateBody,
  msg,
  readyMadeConsentTemplateResponse,
  updateConsentTemplateBody,
  workspaceIdParams,
  type Action,
} from '@divan/core';
import { z } from 'zod';
import type { Access } from '../../platform/auth/access';
import { caller } from '../../platform/auth/caller';
import type { ConsentTemplatesService } from './consent-templates.service';

const tags = ['consents'];
const T = '/api/v1/workspaces/:workspaceId/consent-templates';
const can = (action: Exclude<Action, 'manage'>): Access => ({ workspace: [action, 'consent_templates'] });
const readyMadeParams = workspaceIdParams.extend({ key: z.enum(READY_MADE_CONSENT_KEYS, { error: msg.invalidEnum() }) });

/** Consent templates of a workspace (spec §2 `/consents`, `/consents/editor/{id?}`), and the ready-made ones to copy. */
export async function consentTemplatesRoutes(app: FastifyInstance, { templates }: { templates: ConsentTemplatesService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/v1/consent-templates/ready-made',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'listReadyMadeConsentTemplates',
        tags,
        description: 'Ready-made templates in Spanish, written for Spain, to copy into a workspace and edit there.',
        response: { 200: z.array(readyMadeConsentTemplateResponse) },
      },
    },
    () => templates.readyMade(),
  );
  r.get(
    T,
    {
      config: { access: can('read') },
      schema: {
        operationId: 'listConsentTemplates',
        tags,
        params: workspaceIdParams,
        querystring: consentTemplateListQuery,
        response: { 200: consentTemplateListResponse },
      },
    },
    (req) => templates.list(caller(req), req.query),
  );
  r.post(
    T,
    {
      config: { access: can('create') },
      schema: {
        operationId: 'createConsentTemplate',
        tags,
        params: workspaceIdParams,
        body: createConsentTemplateBody,
        response: { 201: consentTemplateResponse },
      },
    },
    async (req, reply) => reply.status(201).send(await templates.create(caller(req), req.body)),
  );
  r.post(
    `${T}/from-ready-made/:key`,
    {
      config: { access: can('create') },
      schema: {
        operationId: 'copyReadyMadeConsentTemplate',
        tags,
        description: 'A copy of a ready-made template; `therapistSignature` is needed when it says the therapist signs.',
        params: readyMadeParams,
        body: copyReadyMadeBody,
        response: { 201: consentTemplateResponse },
      },
    },
    async (req, reply) => reply.status(201).send(await templates.copyReadyMade(caller(req), req.params.key, req.body)),
  );
  r.get(
    `${T}/:templateId`,
    {
      config: { access: can('read') },
      schema: {
        operationId: 'getConsentTemplate',
        tags,
        description: 'The latest version, or `?version=` an earlier one (a sent consent keeps the version it was sent with).',
        params: consentTemplateIdParams,
        querystring: consentTemplateQuery,
        response: { 200: consentTemplateResponse },
      },
    },
    (req) => templates.get(caller(req), req.params.templateId, req.query.version),
  );
  r.get(
    `${T}/:templateId/versions`,
    {
      config: { access: can('read') },
      schema: {
        operationId: 'listConsentTemplateVersions',
        tags,
        params: consentTemplateIdParams,
        response: { 200: z.array(consentTemplateVersionSummary) },
      },
    },
    (req) => templates.versions(caller(req), req.params.templateId),
  );
  r.put(
    `${T}/:templateId`,
    {
      config: { access: can('update') },
      schema: {
        operationId: 'updateConsentTemplate',
        tags,
        description: 'Saves a new version; `baseVersion` is the version edited (another save since then: consent_invalid_version).',
        params: consentTemplateIdParams,
        body: updateConsentTemplateBody,
        response: { 200: consentTemplateResponse },
      },
    },
    (req) => templates.update(caller(req), req.params.templateId, req.body),
  );
  r.delete(
    `${T}/:templateId`,
    {
      config: { access: can('delete') },
      schema: {
        operationId: 'deleteConsentTemplate',
        tags,
        description: 'Archives the template: its versions stay for the consents sent with them.',
        params: consentTemplateIdParams,
        response: { 204: z.null() },
      },
    },
    async (req, reply) => {
      await templates.delete(caller(req), req.params.templateId);
      return reply.status(204).send(null);
    },
  );
}
