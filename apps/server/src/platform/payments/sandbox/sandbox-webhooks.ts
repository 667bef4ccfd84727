import type { Db, DbOrTx } from '../../db/database';
import type { Jobs } from '../../jobs/jobs';
import type { GatewayEvent } from '../gateway';
import { loadStripe } from '../stripe-sdk';
import { findObject, insertObject, newId, type StripeObject } from './sandbox-store';

export const SANDBOX_WEBHOOK_QUEUE = 'payments.sandbox-webhook';

/** The app's webhook endpoint, as the sandbox calls it: throws (or rejects) unless the event was taken. */
export type WebhookReceiver = (rawBody: string, signature: string) => Promise<void>;

export type SandboxEvent = {
  id: string;
  object: 'event';
  type: string;
  account: string | null;
  api_version: string;
  created: number;
  data: { object: StripeObject };
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
};

export type DeliveryOptions = {
  /**
   * Signs the platform's own events (account null: Diván's billing), which go to the platform endpoint
   * (`deliverPlatformTo`), as Stripe sends a platform event to a normal endpoint and a connected
   * account's to the Connect one. Unset: platform events wait, undelivered.
   */
  platformSecret?: string;
  /** Attempts after the first failure (default 12: with backoff from 10 s, about eleven hours). */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** Doubling delays between attempts (default true). */
  retryBackoff?: boolean;
};

/**
 * Stripe's events, stored (`type` event) and each delivered by a job, at least once, to the receiver
 * the app plugs in (`deliverTo`): the exact body sent is signed as Stripe signs it (`Stripe-Signature`,
 * `t=…,v1=…`, HMAC-SHA256 with the endpoint's secret), at delivery time, so a retry hours later still
 * passes the signature's five-minute tolerance. No receiver yet: the job fails and is retried.
 */
export class SandboxWebhooks {
  private receiver: WebhookReceiver | undefined;
  private platformReceiver: WebhookReceiver | undefined;
  private readonly platformSecret: string | undefined;

  constructor(
    private readonly db: Db,
    private readonly jobs: Jobs,
    private readonly secret: string,
    opts: DeliveryOptions = {},
  ) {
    if (!secret.trim()) throw new Error('sandbox payments: a webhook secret is required');
    if (opts.platformSecret !== undefined && (!opts.platformSecret.trim() || opts.platformSecret === secret))
      throw new Error('sandbox payments: the platform endpoint needs a secret of its own');
    this.platformSecret = opts.platformSecret;
    jobs.define<{ id: string }>({
      name: SANDBOX_WEBHOOK_QUEUE,
      work: ({ id }) => this.deliver(id),
      retryLimit: opts.retryLimit ?? 12,
      retryDelaySeconds: opts.retryDelaySeconds ?? 10,
      retryBackoff: opts.retryBackoff ?? true,
      expireInSeconds: 60,
    });
  }

  /** The Connect endpoint: events of connected accounts (the patients' payments). */
  deliverTo(receiver: WebhookReceiver) {
    this.receiver = receiver;
    // Events that waited for a receiver go at their next retry; a fresh send wakes the worker.
    this.jobs.wake(SANDBOX_WEBHOOK_QUEUE);
  }

  /** The platform endpoint: the platform account's own events (Diván's billing). */
  deliverPlatformTo(receiver: WebhookReceiver) {
    this.platformReceiver = receiver;
    this.jobs.wake(SANDBOX_WEBHOOK_QUEUE);
  }

  /** Stores an event and enqueues its delivery, in the caller's transaction: a rollback sends nothing. */
  async emit(tx: DbOrTx, account: string | null, type: string, object: StripeObject, created: number): Promise<SandboxEvent> {
    const sdk = await loadStripe();
    const event: SandboxEvent = {
      id: newId('evt_'),
      object: 'event',
      type,
      account,
      api_version: sdk.API_VERSION,
      created,
      // A snapshot: later changes to the object do not reach an event already emitted.
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    };
    await insertObject(tx, event, { account });
    await this.jobs.send(SANDBOX_WEBHOOK_QUEUE, { id: event.id }, { tx, key: event.id });
    return event;
  }

  /** The body and `Stripe-Signature` header of an event, as its delivery sends them (signed for its endpoint). */
  async signed(eventId: string): Promise<{ payload: string; signature: string; platform: boolean }> {
    const event = await findObject<SandboxEvent>(this.db, 'event', eventId);
    if (!event) throw new Error(`sandbox webhook: no event ${eventId}`);
    const platform = event.account === null;
    const secret = platform ? this.platformSecret : this.secret;
    if (!secret) throw new Error(`sandbox webhook: no platform endpoint secret for ${eventId}`);
    const payload = JSON.stringify(event);
    const sdk = await loadStripe();
    return { payload, signature: sdk.webhooks.generateTestHeaderString({ payload, secret }), platform };
  }

  /** `constructEvent` of the installed SDK, exactly as the Stripe gateway checks a real webhook; rejects otherwise. */
  async verify(rawBody: Buffer | string, signature: string | undefined): Promise<GatewayEvent> {
    return this.check(rawBody, signature, this.secret);
  }

  /** The same for the platform endpoint, with its own secret. */
  async verifyPlatform(rawBody: Buffer | string, signature: string | undefined): Promise<GatewayEvent> {
    if (!this.platformSecret) throw new Error('sandbox webhook: no platform endpoint secret');
    return this.check(rawBody, signature, this.platformSecret);
  }

  private async check(rawBody: Buffer | string, signature: string | undefined, secret: string): Promise<GatewayEvent> {
    const sdk = await loadStripe();
    const event = sdk.webhooks.constructEvent(rawBody, signature ?? '', secret) as unknown as SandboxEvent;
    return { id: event.id, type: event.type, account: event.account ?? null, created: event.created, object: event.data.object };
  }

  private async deliver(eventId: string) {
    const { payload, signature, platform } = await this.signed(eventId);
    const receiver = platform ? this.platformReceiver : this.receiver;
    if (!receiver) throw new Error(`sandbox webhook: no receiver set yet (${platform ? 'deliverPlatformTo' : 'deliverTo'})`);
    await receiver(payload, signature);
  }
}
