import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  billingChangeBody,
  billingPortalResponse,
  billingPreviewResponse,
  billingCheckoutBody,
  billingCheckoutResponse,
  billingCheckoutStatusResponse,
  billingOverviewResponse,
  SELF_SERVE_MAX_SEATS,
  workspaceIdParams,
} from '@divan/core';
import { caller } from '../../platform/auth/caller';
import type { BillingWebhooks } from './billing-webhooks.service';
import type { BillingService } from './billing.service';
import type { SubscriptionChanges } from './subscription-changes.service';

const tags = ['billing'];
/** The provider's Checkout Session id (`cs_test_…`, `cs_live_…`). */
const checkoutIdParam = z.string().regex(/^cs_[A-Za-z0-9_]{1,250}$/, { error: 'Pago no válido' });
const W = '/api/v1/workspaces/:workspaceId/billing';

/** Diván's own plans: what a workspace has, Checkout to buy one, and the provider's platform webhook. */
export async function billingRoutes(
  app: FastifyInstance,
  { billing, changes, webhooks }: { billing: BillingService; changes: SubscriptionChanges; webhooks: BillingWebhooks },
) {
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

  const manage = { config: { access: { workspace: ['update', 'workspace_billing'] as ['update', 'workspace_billing'] } } };
  const S = `${W}/subscription`;
  r.post(
    `${S}/preview`,
    {
      ...manage,
      schema: {
        operationId: 'previewPlanChange',
        tags,
        description: 'What changing to this plan and interval would bill next (the provider’s preview), and when it takes effect.',
        params: workspaceIdParams,
        body: billingChangeBody,
        response: { 200: billingPreviewResponse },
      },
    },
    (req) => changes.preview(caller(req).member, req.body),
  );
  r.put(
    S,
    {
      ...manage,
      schema: {
        operationId: 'changePlan',
        tags,
        description:
          'Another plan or interval: up now (prorated), down or yearly → monthly at the renewal (the plan paid for kept until then).',
        params: workspaceIdParams,
        body: billingChangeBody,
        response: { 200: billingOverviewResponse },
      },
    },
    async (req) => {
      await changes.change(caller(req).member, req.body);
      return billing.overview(caller(req).member);
    },
  );
  r.post(
    `${W}/portal`,
    {
      ...manage,
      schema: {
        operationId: 'openBillingPortal',
        tags,
        description: 'The provider’s Customer Portal for the workspace’s cards and receipts (owner or workspace billing only).',
        params: workspaceIdParams,
        response: { 200: billingPortalResponse },
      },
    },
    (req) => billing.portal(caller(req).member),
  );
  r.get(
    `${W}/next-invoice`,
    {
      config: { access: { workspace: ['read', 'workspace_billing'] } },
      schema: {
        operationId: 'previewNextPlanInvoice',
        tags,
        description: 'The next invoice of the plan as the provider would write it now, or with `quantity` users (prorated).',
        params: workspaceIdParams,
        querystring: z.object({ quantity: z.coerce.number().int().min(1).max(SELF_SERVE_MAX_SEATS).optional() }),
        response: { 200: billingPreviewResponse.nullable() },
      },
    },
    (req) => changes.nextInvoice(caller(req).member, req.query.quantity),
  );
  const renewal = (action: 'cancel' | 'reactivate', operationId: string, description: string) =>
    r.post(
      `${S}/${action}`,
      { ...manage, schema: { operationId, tags, description, params: workspaceIdParams, response: { 200: billingOverviewResponse } } },
      async (req) => {
        await changes[action](caller(req).member);
        return billing.overview(caller(req).member);
      },
    );
  renewal('cancel', 'cancelPlanRenewal', 'Renewal off («renovación desactivada»): the plan ends at the period’s end.');
  renewal('reactivate', 'reactivatePlanRenewal', 'Renewal on again, before the period ends.');
  // A POST like cancel and reactivate: an action on the provider's subscription, refused without one.
  r.post(
    `${S}/scheduled-change/drop`,
    {
      ...manage,
      schema: {
        operationId: 'dropScheduledPlanChange',
        tags,
        description: 'The change waiting for the renewal (yearly → monthly) dropped: the subscription renews as it is.',
        params: workspaceIdParams,
        response: { 200: billingOverviewResponse },
      },
    },
    async (req) => {
      await changes.dropScheduled(caller(req).member);
      return billing.overview(caller(req).member);
    },
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
      (req) => webhooks.receive(req.body as Buffer, req.headers['stripe-signature'] as string | undefined),
    );
  });
}
