import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import type { BillingCheckout, BillingCheckoutBody, BillingCheckoutStatus, BillingDetailsBody, BillingDetailsResponse } from '@divan/core';
import { sandboxBillingWebhookSecret } from '../platform/payments/create-gateway';
import type { TestApp } from './test-app';
import { until } from './until';
import type { Therapist } from './workspace-fixtures';

/**
 * A workspace subscribed to one of Diván's plans as a person does it: Checkout started by `who`, paid on
 * the sandbox's hosted page with a test card, the plan applied by the platform webhook.
 */
export async function subscribe(t: TestApp, who: Therapist, workspaceId: string, body: BillingCheckoutBody, card = '4242 4242 4242 4242') {
  const given = await t.get(`/api/v1/workspaces/${workspaceId}/billing/details`, { token: who.accessToken });
  if (given.statusCode === 200 && !(given.json() as BillingDetailsResponse).details) await giveBillingDetails(t, who, workspaceId);
  const res = await t.post(`/api/v1/workspaces/${workspaceId}/billing/checkout`, body, { token: who.accessToken });
  if (res.statusCode !== 200) throw new Error(`checkout: ${res.body}`);
  const { sessionId } = res.json() as BillingCheckout;
  const done = await t.app.services.paymentsSandbox!.hosted.submitCard(sessionId, { number: card, exp: '12/30', cvc: '123' });
  if (!done || done.kind !== 'redirect') throw new Error(`checkout ${sessionId} not paid: ${JSON.stringify(done)}`);
  await until(
    async () =>
      (
        await t.get(`/api/v1/workspaces/${workspaceId}/billing/checkout/${sessionId}`, { token: who.accessToken })
      ).json() as BillingCheckoutStatus,
    (s) => s.applied,
  );
  return sessionId;
}

/** A business in France with its EU VAT id: Diván's invoices to it are not subject (reverse charge). */
export const FRENCH_BUSINESS: Partial<BillingDetailsBody> = {
  name: 'Cabinet Marie SARL',
  country: 'FR',
  taxId: null,
  vatId: 'FR12345678901',
  line1: '3 rue de Rivoli',
  city: 'París',
  postalCode: '75001',
};

/** Ajustes › Pagos' billing data of a workspace (by default a therapist in Madrid: 21 % IVA). */
export async function giveBillingDetails(t: TestApp, who: Therapist, workspaceId: string, details: Partial<BillingDetailsBody> = {}) {
  const body: BillingDetailsBody = {
    name: 'Olga Ruiz Martín',
    country: 'ES',
    taxId: '12345678Z',
    line1: 'Calle Mayor 1',
    city: 'Madrid',
    postalCode: '28001',
    ...details,
  };
  const res = await t.put(`/api/v1/workspaces/${workspaceId}/billing/details`, body, { token: who.accessToken });
  if (res.statusCode !== 200) throw new Error(`billing details: ${res.body}`);
  return res.json() as BillingDetailsResponse;
}

/**
 * A platform event posted to the billing endpoint as Stripe would send it: signed with the sandbox's
 * billing secret (or `secret`), `object` as its `data.object`. The answer, as the endpoint gave it.
 */
export async function postPlatformEvent(t: TestApp, type: string, object: Record<string, unknown>, secret?: string) {
  const payload = JSON.stringify({
    id: `evt_test_${randomUUID().replaceAll('-', '')}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object },
    livemode: false,
  });
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: secret ?? sandboxBillingWebhookSecret(t.config.appSecret) });
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/billing/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    payload,
  });
}

/** Waits until the billing endpoint has taken every platform event the sandbox emitted (deliveries are jobs). */
export async function platformEventsTaken(t: TestApp) {
  const [left] = await until(
    () =>
      t.rows<{ waiting: number }>(
        sql`select count(*)::int as waiting from sandbox_stripe_objects o where o.type = 'event' and o.account is null
            and not exists (select 1 from billing_events e where e.event_id = o.id)`,
      ),
    ([r]) => r!.waiting === 0,
  );
  if (left!.waiting) throw new Error(`${left!.waiting} platform events not delivered`);
  // An event is recorded before what follows it (Diván's invoice for a paid charge) is done: wait for those too.
  const [unbilled] = await until(
    () =>
      t.rows<{ waiting: number }>(
        sql`select count(*)::int as waiting from sandbox_stripe_objects o
            where o.type = 'invoice' and o.account is null and o.data->>'status' = 'paid' and (o.data->>'amount_paid')::int > 0
              and not exists (select 1 from billing_invoices b where b.provider_invoice_id = o.id)
              and exists (select 1 from billing_customers c join billing_details d on d.workspace_id = c.workspace_id
                          where c.customer_id = o.data->>'customer')`,
      ),
    ([r]) => r!.waiting === 0,
  );
  if (unbilled!.waiting) throw new Error(`${unbilled!.waiting} paid charges without Diván's invoice`);
}
