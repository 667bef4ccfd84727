import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  analyticsExportQuery,
  analyticsQuery,
  analyticsResponse,
  analyticsRowsQuery,
  analyticsRowsResponse,
  ANALYTICS_TAB_LABELS,
  ANALYTICS_TABS,
  type AnalyticsTab,
  dashboardStats,
  workspaceIdParams,
} from '@divan/core';
import { z } from 'zod';
import { caller } from '../../platform/auth/caller';
import { contentDisposition } from '../../platform/http/content-disposition';
import { exportTab } from './analytics-export';
import type { AnalyticsService } from './analytics.service';

const tags = ['analytics'];
const A = '/api/v1/workspaces/:workspaceId/analytics';
/** The dashboard is every member's: what it counts is each one's own scope (null where they read nothing). */
const member = { workspace: 'member' } as const;
/**
 * Each tab's door is the permission over what it counts; inside, the service narrows to the member's scope
 * (their own, or one therapist) and to the fields they may read (Recepción counts no motive).
 */
const DOOR: Record<AnalyticsTab, ['read', 'sessions' | 'patient_files' | 'patient_treatment' | 'invoices']> = {
  sessions: ['read', 'sessions'],
  patients: ['read', 'patient_files'],
  treatments: ['read', 'patient_treatment'],
  billing: ['read', 'invoices'],
};

export async function analyticsRoutes(app: FastifyInstance, { analytics }: { analytics: AnalyticsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    `${A}/dashboard`,
    {
      config: { access: member },
      schema: {
        operationId: 'getDashboardStats',
        tags,
        description:
          "The dashboard's figures: this month's revenue against the same days of the last, 30 days per day, what is owed, the month's sessions.",
        params: workspaceIdParams,
        response: { 200: dashboardStats },
      },
    },
    (req) => analytics.dashboard(caller(req)),
  );
  for (const tab of ANALYTICS_TABS) {
    const access = { workspace: DOOR[tab] } as const;
    const Tab = `${tab[0]!.toUpperCase()}${tab.slice(1)}`;
    r.get(
      `${A}/${tab}`,
      {
        config: { access },
        schema: {
          operationId: `getAnalytics${Tab}`,
          tags,
          description: `${ANALYTICS_TAB_LABELS[tab]}: the period's figures and the period's before, for the caller, one therapist or the workspace (Advance and Team plans).`,
          params: workspaceIdParams,
          querystring: analyticsQuery,
          response: { 200: analyticsResponse },
        },
      },
      // The answer's JSON as kept (a Buffer skips the serialiser; it was written by the same contract).
      async (req, reply) =>
        reply.type('application/json; charset=utf-8').send((await analytics.tabJson(caller(req), tab, req.query)) as never),
    );
    r.get(
      `${A}/${tab}/rows`,
      {
        config: { access },
        schema: {
          operationId: `listAnalytics${Tab}Rows`,
          tags,
          description: `The rows a card of ${ANALYTICS_TAB_LABELS[tab]} counts (sessions, invoices or patients), how many, and the amounts they add up to.`,
          params: workspaceIdParams,
          querystring: analyticsRowsQuery,
          response: { 200: analyticsRowsResponse },
        },
      },
      (req) => analytics.rows(caller(req), tab, req.query),
    );
    r.get(
      `${A}/${tab}/export`,
      {
        config: { access },
        schema: {
          operationId: `exportAnalytics${Tab}`,
          tags,
          description: `${ANALYTICS_TAB_LABELS[tab]}'s tables as xlsx (default) or CSV.`,
          params: workspaceIdParams,
          querystring: analyticsExportQuery,
          response: { 200: z.string() },
        },
      },
      async (req, reply) => {
        const { format, ...q } = req.query;
        const file = await exportTab(await analytics.tab(caller(req), tab, q), format);
        return reply
          .type(file.type)
          .header('content-disposition', contentDisposition(file.filename))
          .send(file.body as never);
      },
    );
  }
}
