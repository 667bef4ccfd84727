import { createHmac } from 'node:crypto';
import type { StripeConfig } from '../config';
import type { Db } from '../db/database';
import type { Jobs } from '../jobs/jobs';
import type { PaymentsGateway } from './gateway';
import { SandboxGateway } from './sandbox/sandbox-gateway';
import { StripeGateway } from './stripe-gateway';

/**
 * Stripe when STRIPE_SECRET_KEY is set, else the built-in sandbox (test mode, its webhook secret derived
 * from APP_SECRET so its signed events verify across restarts and processes). Before `jobs.start()`.
 */
export function createPaymentsGateway(o: {
  stripe?: StripeConfig;
  db: Db;
  jobs: Jobs;
  publicUrl: string;
  appSecret: string;
  clock?: () => Date;
}): { gateway: PaymentsGateway; sandbox: SandboxGateway | null } {
  if (o.stripe) return { gateway: new StripeGateway(o.stripe), sandbox: null };
  const sandbox = new SandboxGateway({
    db: o.db,
    jobs: o.jobs,
    publicUrl: o.publicUrl,
    webhookSecret: sandboxWebhookSecret(o.appSecret),
    billingWebhookSecret: sandboxBillingWebhookSecret(o.appSecret),
    clock: o.clock,
  });
  return { gateway: sandbox, sandbox };
}

/** The sandbox's webhook signing secret (tests sign their own events with it). */
export const sandboxWebhookSecret = (appSecret: string) =>
  `whsec_${createHmac('sha256', appSecret).update('divan:payments-sandbox-webhook').digest('base64url')}`;

/** The sandbox's platform endpoint secret (Diván's billing events), another than the Connect one's. */
export const sandboxBillingWebhookSecret = (appSecret: string) =>
  `whsec_${createHmac('sha256', appSecret).update('divan:billing-sandbox-webhook').digest('base64url')}`;
