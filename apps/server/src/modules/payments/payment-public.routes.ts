import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paymentLinkParams, paymentUrlResponse, publicPaymentLinkResponse } from '@divan/core';
import { z } from 'zod';
import type { InvoicePayLinks } from './invoice-pay-links.service';
import type { PaymentWebhooks } from './webhooks/payment-webhooks.service';

const tags = ['payments'];

/** What needs no account: the mailed links' page and checkout, and the provider's webhook (verified by its signature). */
export async function paymentPublicRoutes(
  app: FastifyInstance,
  d: { payLinks: InvoicePayLinks; webhooks: PaymentWebhooks; perIpPerMinute: number },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const pub = { access: 'public' as const, rateLimit: { max: d.perIpPerMinute, timeWindow: 60_000 } };
  r.get(
    '/api/v1/public/payment-links/:token',
    {
      config: pub,
      schema: { operationId: 'getPaymentLink', tags, params: paymentLinkParams, response: { 200: publicPaymentLinkResponse } },
    },
    (req) => d.payLinks.info(req.params.token),
  );
  r.post(
    '/api/v1/public/payment-links/:token/checkout',
    {
      config: pub,
      schema: {
        operationId: 'startPaymentLinkCheckout',
        tags,
        description: "A fresh Checkout Session on the seller's account.",
        params: paymentLinkParams,
        response: { 200: paymentUrlResponse },
      },
    },
    (req) => d.payLinks.checkout(req.params.token),
  );

  // The signature covers the exact bytes: this route (alone, in its own context) keeps the body raw.
  await app.register(async (raw) => {
    raw.removeContentTypeParser('application/json');
    raw.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_req, body, done) => done(null, body));
    raw.withTypeProvider<ZodTypeProvider>().post(
      '/api/v1/payments/webhook',
      {
        config: { access: 'public' },
        schema: {
          operationId: 'paymentsWebhook',
          tags,
          description: "Stripe's events (or the sandbox's), signature checked over the raw body; each event handled once.",
          response: { 200: z.object({ received: z.literal(true), duplicate: z.boolean() }) },
        },
      },
      (req) => d.webhooks.receive(req.body as Buffer, req.headers['stripe-signature'] as string | undefined),
    );
  });
}
