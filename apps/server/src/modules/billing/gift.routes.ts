import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  giftCheckoutBody,
  giftCheckoutResponse,
  giftCodeParam,
  giftPurchaseResponse,
  giftViewResponse,
  redeemGiftBody,
  redeemGiftResponse,
  workspaceIdParams,
} from '@divan/core';
import { caller } from '../../platform/auth/caller';
import type { GiftService } from './gift.service';

const tags = ['billing'];
const W = '/api/v1/workspaces/:workspaceId/gifts';

/** Gift codes: bought by a workspace (Checkout in payment mode), shown once, seen and redeemed at `/gift/{code}`. */
export async function giftRoutes(app: FastifyInstance, d: { gifts: GiftService; perIpPerMinute: number }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    `${W}/checkout`,
    {
      config: { access: { workspace: ['update', 'workspace_billing'] } },
      schema: {
        operationId: 'startGiftCheckout',
        tags,
        description: 'Months of Diván Premium as a gift: a Checkout in payment mode, invoiced with IVA to the workspace’s billing data.',
        params: workspaceIdParams,
        body: giftCheckoutBody,
        response: { 200: giftCheckoutResponse },
      },
    },
    (req) => d.gifts.checkout(caller(req).member, caller(req).userId, req.body),
  );
  r.get(
    `${W}/checkout/:giftCheckoutId`,
    {
      config: { access: { workspace: ['update', 'workspace_billing'] } },
      schema: {
        operationId: 'getGiftPurchase',
        tags,
        description: 'A gift bought: paid once the provider’s webhook said so; its code on the first read after that, to its buyer only.',
        params: workspaceIdParams.extend({ giftCheckoutId: z.string().regex(/^cs_[A-Za-z0-9_]{1,250}$/, { error: 'Compra no válida' }) }),
        response: { 200: giftPurchaseResponse },
      },
    },
    (req) => d.gifts.purchase(caller(req).member, caller(req).userId, req.params.giftCheckoutId),
  );
  r.post(
    `${W}/redeem`,
    {
      config: { access: { workspace: 'member' } },
      schema: {
        operationId: 'redeemGift',
        tags,
        description:
          'A gift redeemed once by the owner of a workspace: its months added to the free trial (after the paid period when the plan does not renew), or what it is worth before VAT taken off the next invoice of a plan that renews.',
        params: workspaceIdParams,
        body: redeemGiftBody,
        response: { 200: redeemGiftResponse },
      },
    },
    (req) => d.gifts.redeem(caller(req).member, caller(req).userId, req.body.code),
  );
  r.get(
    '/api/v1/gifts/:code',
    {
      config: { access: 'public', rateLimit: { max: d.perIpPerMinute, timeWindow: 60_000 } },
      schema: {
        operationId: 'getGift',
        tags,
        description: 'The `/gift/{code}` page: what the gift holds, who gives it, and whether it can still be redeemed.',
        params: giftCodeParam,
        response: { 200: giftViewResponse },
      },
    },
    (req) => d.gifts.view(req.params.code),
  );
}
