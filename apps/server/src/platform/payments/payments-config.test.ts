import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';

const env = (extra: Record<string, string>) =>
  ({ APP_SECRET: 'x'.repeat(64), DATA_DIR: '/tmp/divan-config-test', ...extra }) as NodeJS.ProcessEnv;

describe('STRIPE_* configuration', () => {
  it('is the sandbox when unset', () => {
    expect(loadConfig(env({})).stripe).toBeUndefined();
  });
  it('takes a secret key with its webhook secret, and another API host', () => {
    expect(
      loadConfig(env({ STRIPE_SECRET_KEY: 'sk_test_123', STRIPE_WEBHOOK_SECRET: 'whsec_abc', STRIPE_API_BASE: 'http://127.0.0.1:12111' }))
        .stripe,
    ).toEqual({ secretKey: 'sk_test_123', webhookSecret: 'whsec_abc', apiBase: 'http://127.0.0.1:12111' });
  });
  it('takes the platform endpoint’s secret for Diván’s plans, optional, only with the secret key and not the Connect one', () => {
    const both = { STRIPE_SECRET_KEY: 'sk_test_123', STRIPE_WEBHOOK_SECRET: 'whsec_abc' };
    expect(loadConfig(env(both)).stripe?.billingWebhookSecret).toBeUndefined();
    expect(loadConfig(env({ ...both, STRIPE_BILLING_WEBHOOK_SECRET: 'whsec_plans' })).stripe).toEqual({
      secretKey: 'sk_test_123',
      webhookSecret: 'whsec_abc',
      billingWebhookSecret: 'whsec_plans',
    });
    expect(() => loadConfig(env({ STRIPE_BILLING_WEBHOOK_SECRET: 'whsec_plans' }))).toThrow(
      /^Invalid environment variable STRIPE_SECRET_KEY: required with .*STRIPE_BILLING_WEBHOOK_SECRET/,
    );
    expect(() => loadConfig(env({ STRIPE_SECRET_KEY: 'sk_test_123', STRIPE_BILLING_WEBHOOK_SECRET: 'whsec_plans' }))).toThrow(
      /^Invalid environment variable STRIPE_WEBHOOK_SECRET: required/,
    );
    expect(() => loadConfig(env({ ...both, STRIPE_BILLING_WEBHOOK_SECRET: 'whsec_abc' }))).toThrow(
      /^Invalid environment variable STRIPE_BILLING_WEBHOOK_SECRET: the platform endpoint’s own secret/,
    );
  });
  it('stops start-up with one line naming the variable', () => {
    expect(() => loadConfig(env({ STRIPE_SECRET_KEY: 'sk_test_123' }))).toThrow(
      /^Invalid environment variable STRIPE_WEBHOOK_SECRET: required/,
    );
    expect(() => loadConfig(env({ STRIPE_WEBHOOK_SECRET: 'whsec_abc' }))).toThrow(
      /^Invalid environment variable STRIPE_SECRET_KEY: required/,
    );
    expect(() => loadConfig(env({ STRIPE_SECRET_KEY: 'pk_test_123', STRIPE_WEBHOOK_SECRET: 'whsec_abc' }))).toThrow(
      /^Invalid environment variable STRIPE_SECRET_KEY: expected a Stripe secret key/,
    );
  });
});
