import type { BillingCheckout, BillingCheckoutBody, BillingCheckoutStatus } from '@divan/core';
import type { TestApp } from './test-app';
import { until } from './until';
import type { Therapist } from './workspace-fixtures';

/**
 * A workspace subscribed to one of Diván's plans as a person does it: Checkout started by `who`, paid on
 * the sandbox's hosted page with a test card, the plan applied by the platform webhook.
 */
export async function subscribe(t: TestApp, who: Therapist, workspaceId: string, body: BillingCheckoutBody, card = '4242 4242 4242 4242') {
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
