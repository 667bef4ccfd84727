/**
 * One Stripe API client as both Stripe classes use it (the patients' gateway on connected accounts, and
 * Diván's own billing on the platform account): the SDK loaded at the first call (stripe-sdk.ts), its
 * errors read as the gateway's, and a webhook endpoint's signature checked with that endpoint's secret.
 */
import type Stripe from 'stripe';
import type { GatewayEvent } from './gateway';
import { toEvent, toGatewayError } from './stripe-mapping';
import { loadStripe, type StripeSdk } from './stripe-sdk';

/** Tuning for tests; production uses the defaults. */
export type StripeClientOptions = {
  /** Per request, in ms (default 30 s; the SDK's own is 80 s). */
  timeoutMs?: number;
  /** Retries of network errors, 409 and 5xx, with backoff (default 2). */
  maxNetworkRetries?: number;
};

/** `http://127.0.0.1:4567` → the SDK's host, port and protocol; unset: api.stripe.com. */
export function apiBaseOptions(apiBase: string | undefined): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`STRIPE_API_BASE must be http(s): ${apiBase}`);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol };
}

export function stripeMode(secretKey: string): 'test' | 'live' {
  return /^(sk|rk)_test_/.test(secretKey) ? 'test' : 'live';
}

export class StripeClient {
  readonly mode: 'test' | 'live';
  private readonly sdkConfig: Stripe.StripeConfig;
  private loaded: Promise<{ sdk: StripeSdk; stripe: Stripe }> | undefined;

  constructor(
    private readonly secretKey: string,
    /** The signing secret of the endpoint whose events `verify` checks. */
    private readonly webhookSecret: string,
    apiBase: string | undefined,
    options: StripeClientOptions = {},
  ) {
    this.mode = stripeMode(secretKey);
    // Checked here (a bad STRIPE_API_BASE fails at start); the SDK and its client wait for the first call.
    this.sdkConfig = {
      ...apiBaseOptions(apiBase),
      timeout: options.timeoutMs ?? 30_000,
      maxNetworkRetries: options.maxNetworkRetries ?? 2,
      telemetry: false,
      appInfo: { name: 'Divan' },
    };
  }

  /** Runs one call with the client; Stripe's errors come out as GatewayCardError or GatewayUnavailableError. */
  async call<T>(fn: (stripe: Stripe, sdk: StripeSdk) => Promise<T>): Promise<T> {
    const { sdk, stripe } = await this.client();
    try {
      return await fn(stripe, sdk);
    } catch (err) {
      throw toGatewayError(err, sdk);
    }
  }

  /** The event of a webhook request, its signature checked over the raw body (`constructEvent`); rejects otherwise. */
  async verify(rawBody: Buffer | string, signature: string | undefined): Promise<GatewayEvent> {
    const { stripe } = await this.client();
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(rawBody, signature ?? '', this.webhookSecret);
    } catch (err) {
      throw new Error(`Invalid Stripe webhook: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    return toEvent(event);
  }

  /** The SDK (loaded at the first call) and the client made with it, once; a failure is tried again next time. */
  private client(): Promise<{ sdk: StripeSdk; stripe: Stripe }> {
    this.loaded ??= loadStripe().then(
      (sdk) => ({ sdk, stripe: new sdk(this.secretKey, this.sdkConfig) }),
      (err: unknown) => {
        this.loaded = undefined;
        throw err;
      },
    );
    return this.loaded;
  }
}
