/**
 * For the sandbox's tests: a fresh database (in-memory PGlite, or a new PostgreSQL database with
 * TEST_DATABASE_URL), started jobs, a SandboxGateway whose deliveries are collected (and verified
 * with `verifyWebhook`, as the app's handler will), and a bare Fastify app with only its pages.
 */
import Fastify from 'fastify';
import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../db/database';
import { Jobs } from '../../jobs/jobs';
import { createPostgresDatabase, pgliteTemplate } from '../../../test/test-app';
import type { GatewayEvent } from '../gateway';
import { SandboxGateway } from './sandbox-gateway';
import type { DeliveryOptions } from './sandbox-webhooks';
import { sandboxPagesRoutes } from './sandbox-pages.routes';

const migrationsFolder = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../drizzle');
export const PUBLIC_URL = 'http://divan.test';

export type Delivery = { payload: string; signature: string; event: GatewayEvent };
export type SandboxKit = Awaited<ReturnType<typeof openSandbox>>;

export async function openSandbox(opts: { receiver?: boolean; delivery?: DeliveryOptions } = {}) {
  const pg = process.env.TEST_DATABASE_URL ? await createPostgresDatabase(process.env.TEST_DATABASE_URL) : undefined;
  // In memory: a copy of the worker's migrated PGlite, as the test apps start from.
  const database = await openDatabase({
    url: pg?.url,
    migrationsFolder,
    poolSize: 4,
    ...(pg ? {} : { loadDataDir: await pgliteTemplate() }),
  });
  const jobs = new Jobs(database, { maintenanceIntervalSeconds: 1 });
  let offsetMs = 0;
  const webhookSecret = `whsec_${randomBytes(24).toString('hex')}`;
  const sandbox = new SandboxGateway({
    db: database.db,
    jobs,
    publicUrl: PUBLIC_URL,
    webhookSecret,
    clock: () => new Date(Date.now() + offsetMs),
    delivery: { retryLimit: 20, retryDelaySeconds: 1, retryBackoff: false, ...opts.delivery },
  });
  const app = Fastify({ logger: false });
  await app.register(sandboxPagesRoutes, { sandbox });
  await app.ready();
  await jobs.start();
  const delivered: Delivery[] = [];
  const receive = () =>
    sandbox.deliverTo(async (payload, signature) => {
      delivered.push({ payload, signature, event: await sandbox.verifyWebhook(payload, signature) });
    });
  if (opts.receiver !== false) receive();

  const form = (url: string, fields: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });

  /** The delivered events of one type, in delivery order. */
  const eventsOf = (type: string) => delivered.filter((d) => d.event.type === type).map((d) => d.event);
  /** Waits until `check` holds (deliveries are asynchronous: a job each). */
  const until = async (check: () => boolean, what = 'condition', ms = 20_000) => {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (check()) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`${what}: not met in ${ms} ms`);
  };
  /** Waits until an event about `objectId` of `type` has been delivered, and returns it. */
  const delivery = async (type: string, objectId: string) => {
    await until(() => eventsOf(type).some((e) => e.object.id === objectId), `${type} of ${objectId} delivered`);
    return eventsOf(type).find((e) => e.object.id === objectId)!;
  };

  /** A connected account that completed onboarding through its page. */
  const readyAccount = async (businessName = 'Consulta Prueba') => {
    const account = await sandbox.createAccount({ email: 'tere@divan.test', businessName, metadata: { holder: 'user:1' } });
    const { url } = await sandbox.onboardingLink(account.id, { refreshUrl: `${PUBLIC_URL}/refresh`, returnUrl: `${PUBLIC_URL}/return` });
    const res = await form(new URL(url).pathname, { businessName, iban: 'ES91 2100 0418 4502 0005 1332' });
    if (res.statusCode !== 303) throw new Error(`onboarding: ${res.statusCode} ${res.body}`);
    return account.id;
  };

  /** A customer with a card saved through the setup Checkout page (3-D Secure approved when the card asks). */
  const savedCard = async (accountId: string, number: string) => {
    const customer = await sandbox.createCustomer(accountId, { email: 'ana@divan.test', name: 'Ana Prueba', metadata: { patient: 'p1' } });
    const checkout = await sandbox.checkoutSetup(accountId, {
      customerId: customer.id,
      successUrl: `${PUBLIC_URL}/ok?s={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${PUBLIC_URL}/no`,
      metadata: { patient: 'p1' },
    });
    const path = new URL(checkout.url).pathname;
    let res = await form(path, { number, exp: '12/40', cvc: '123' });
    if (res.statusCode === 200 && res.body.includes('Autenticación del banco'))
      res = await form(`${path}/autenticar`, { decision: 'approve' });
    if (res.statusCode !== 303) throw new Error(`card setup: ${res.statusCode} ${res.body}`);
    const view = await sandbox.hosted.checkout(checkout.id);
    const setupIntentId = view!.session.setup_intent!;
    const { card } = await sandbox.setupIntentCard(accountId, setupIntentId);
    return { customerId: customer.id, paymentMethodId: card!.paymentMethodId, setupIntentId, checkoutId: checkout.id };
  };

  const close = async () => {
    await app.close();
    await jobs.stop();
    await database.close();
    await pg?.drop();
  };
  return {
    sandbox,
    app,
    jobs,
    db: database.db,
    webhookSecret,
    delivered,
    receive,
    form,
    eventsOf,
    until,
    delivery,
    readyAccount,
    savedCard,
    close,
    /** Moves the sandbox's clock (expiry of links and sessions). */
    advance: (ms: number) => void (offsetMs += ms),
  };
}
