import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  billingCheckoutBody,
  billingCheckoutResponse,
  billingCheckoutStatusResponse,
  billingOverviewResponse,
  workspaceIdParams,
} from '@divan/core';
import { caller } from '../../platform/auth/caller';
import type { BillingService } from './billing.service';

const tags = ['billing'];
/** The provider's Checkout Session id (`cs_test_…`, `cs_live_…`). */
const checkoutIdParam = z.string().regex(/^cs_[A-Za-z0-9_]{1,250}$/, { error: 'Pago no válido' });
const W = '/api/v1/workspaces/:workspaceId/billing';

/** Diván's own plans: what a workspace has, Checkout to buy one, and the provider's platform webhook. */
export async function billingRoutes(app: FastifyInstance, { billing }: { billing: BillingService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Every member sees the plan; buying it checks the owner or workspace billing in the service.
  r.get(
    W,
    {
      config: { access: { workspace: 'member' } },
      schema: { operationId: 'getWorkspaceSubscription', tags, params: workspaceIdParams, response: { 200: billingOverviewResponse } },
    },
    (req) => billing.overview(caller(req).member),
  );
  r.post(
    `${W}/checkout`,
    {
      config: { access: { workspace: ['update', 'workspace_billing'] } },
      schema: {
        operationId: 'startPlanCheckout',
        tags,
        description: 'A hosted Checkout for Basic or Premium, monthly or yearly, for the workspace’s active users.',
        params: workspaceIdParams,
        body: billingCheckoutBody,
        response: { 200: billingCheckoutResponse },
      },
    },
    (req) => billing.checkout(caller(req).member, caller(req).userId, req.body),
  );
  r.get(
    `${W}/checkout/:checkoutId`,
    {
      config: { access: { workspace: 'member' } },
      schema: {
        operationId: 'getPlanCheckout',
        tags,
        description: 'Whether the provider’s webhook has applied the plan a Checkout bought (the success page waits for it).',
        params: workspaceIdParams.extend({ checkoutId: checkoutIdParam }),
        response: { 200: billingCheckoutStatusResponse },
      },
    },
    (req) => billing.checkoutStatus(caller(req).member, req.params.checkoutId),
  );

  // The signature covers the exact bytes: this route (alone, in its own context) keeps the body raw.
  await app.register(async (raw) => {
    raw.removeContentTypeParser('application/json');
    raw.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_req, body, done) => done(null, body));
    raw.withTypeProvider<ZodTypeProvider>().post(
      '/api/v1/billing/webhook',
      {
        config: { access: 'public' },
        schema: {
          operationId: 'billingWebhook',
          tags,
          description: "The platform account's events (Diván's own plans), signature checked over the raw body; each event taken once.",
          response: { 200: z.object({ received: z.literal(true), duplicate: z.boolean() }) },
        },
      },
      (req) => billing.receive(req.body as Buffer, req.headers['stripe-signature'] as string | undefined),
    );
  });
}
