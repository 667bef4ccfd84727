/**
 * The Stripe SDK, loaded at first use (issue 26): it costs some 40 ms and 8 MB to load, and the default
 * server (the built-in sandbox) may never need it. Everything else imports it as `import type`, which
 * the build drops; the values (the client class, `Stripe.errors`, `Stripe.webhooks`, `API_VERSION`)
 * come from here.
 */
import type Stripe from 'stripe';

export type StripeSdk = typeof Stripe;

let loading: Promise<StripeSdk> | undefined;

/** The SDK's default export, imported once; a failed import is tried again at the next call. */
export function loadStripe(): Promise<StripeSdk> {
  loading ??= import('stripe').then(
    (m) => m.default,
    (err: unknown) => {
      loading = undefined;
      throw err;
    },
  );
  return loading;
}
