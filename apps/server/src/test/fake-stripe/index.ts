// Test support: a local HTTP server that speaks the subset of Stripe's API the payments gateway uses
// (stripe-gateway.ts) and Diván's own billing uses (stripe-billing.ts; billing.ts here), for tests with
// the real SDK and no network. Like Stripe: bearer test keys, objects per connected account
// (`Stripe-Account`), idempotency keys replayed (`Idempotent-Replayed`) or refused with other
// parameters, test cards' declines, errors in Stripe's JSON shape.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { completeSubscriptionCheckout } from './billing';
import { canonical, parseForm, type Form } from './form';
import {
  ApiError,
  cardNumber,
  confirm,
  invalid,
  Ledger,
  newId,
  now,
  paymentIntent,
  paymentMethod,
  PLATFORM,
  TEST_CARDS,
  type StripeObject,
} from './objects';
import { ROUTES, type CheckoutPlan, type RouteContext } from './routes';

export { TEST_CARDS, type StripeObject } from './objects';

export type FakeRequest = {
  method: string;
  path: string;
  /** `Stripe-Account`, `Idempotency-Key` (the SDK keys every POST), or null. */
  account: string | null;
  idempotencyKey: string | null;
  headers: IncomingHttpHeaders;
  /** The form body (POST) or the query (GET), parsed. */
  body: Form;
  status: number;
  replayed: boolean;
};

const errorJson = (e: ApiError) =>
  JSON.stringify({ error: { ...e.body, request_log_url: `https://dashboard.stripe.com/test/logs/${newId('req')}` } });

type Stored = { fingerprint: string; status: number; body: string };
type Fault = { kind: 'status'; status: number } | { kind: 'lose-answer' };

export class FakeStripe {
  readonly requests: FakeRequest[] = [];
  readonly ledger = new Ledger();
  url = '';
  port = 0;
  private readonly cards = new Map<string, string>();
  private readonly idempotent = new Map<string, Stored>();
  private readonly faults: Fault[] = [];
  private readonly plans = new Map<string, CheckoutPlan>();
  private server: Server | undefined;

  constructor(readonly webhookSecret = 'whsec_fake_stripe_secret') {}

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.handle(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    this.server = server;
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    this.port = (server.address() as AddressInfo).port;
    this.url = `http://127.0.0.1:${this.port}`;
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((ok) => server.close(() => ok()));
  }

  /** The next `times` requests are answered `status` (Stripe's api_error) without running. */
  failNext(status = 500, times = 1) {
    for (let i = 0; i < times; i++) this.faults.push({ kind: 'status', status });
  }

  /** The next request runs (and is stored for its idempotency key), then its connection is reset: the answer is lost. */
  loseNextAnswer() {
    this.faults.push({ kind: 'lose-answer' });
  }

  private handle(req: IncomingMessage, res: ServerResponse, raw: string) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    const header = (name: string) =>
      typeof req.headers[name] === 'string' && req.headers[name] !== '' ? (req.headers[name] as string) : null;
    const account = header('stripe-account');
    const idempotencyKey = method === 'POST' ? header('idempotency-key') : null;
    const body = parseForm(method === 'POST' ? raw : url.search.slice(1));
    const entry: FakeRequest = {
      method,
      path: url.pathname,
      account,
      idempotencyKey,
      headers: req.headers,
      body,
      status: 0,
      replayed: false,
    };
    this.requests.push(entry);
    const send = (status: number, json: string, extra: Record<string, string> = {}) => {
      entry.status = status;
      res.writeHead(status, {
        'content-type': 'application/json',
        'request-id': newId('req'),
        'stripe-version': header('stripe-version') ?? Stripe.API_VERSION,
        ...(account ? { 'stripe-account': account } : {}),
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        ...extra,
      });
      res.end(json);
    };
    const sendError = (e: ApiError) => send(e.status, errorJson(e));

    const key = /^Bearer ((?:sk|rk)_test_\w+)$/.exec(header('authorization') ?? '')?.[1];
    if (!key)
      return sendError(
        new ApiError(401, {
          type: 'invalid_request_error',
          message: 'Invalid API Key provided (the fake Stripe takes sk_test_/rk_test_ keys).',
        }),
      );
    const route = ROUTES.find((r) => r.method === method && r.pattern.test(url.pathname));
    if (!route)
      return sendError(
        new ApiError(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${url.pathname}).` }),
      );
    if (account && this.ledger.find(account)?.o.object !== 'account') {
      return sendError(
        new ApiError(403, {
          type: 'invalid_request_error',
          code: 'account_invalid',
          message: `The provided key '${key.slice(0, 8)}***' does not have access to account '${account}' (or that account does not exist).`,
        }),
      );
    }
    if (account && route.platformOnly)
      return sendError(invalid(`The fake Stripe expects ${method} ${url.pathname} on the platform, without Stripe-Account.`));

    const scope = `${account ?? PLATFORM}|${idempotencyKey}`;
    const fingerprint = `${method} ${url.pathname} ${canonical(body)}`;
    const stored = idempotencyKey ? this.idempotent.get(scope) : undefined;
    if (stored) {
      if (stored.fingerprint !== fingerprint) {
        return sendError(
          new ApiError(400, {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          }),
        );
      }
      entry.replayed = true;
      return send(stored.status, stored.body, { 'idempotent-replayed': 'true' });
    }
    const fault = this.faults.shift();
    if (fault?.kind === 'status')
      return sendError(
        new ApiError(fault.status, { type: 'api_error', message: 'An unknown error occurred (the fake Stripe was told to fail).' }),
      );

    const context: RouteContext = {
      ledger: this.ledger,
      account,
      owner: route.platformOnly ? PLATFORM : (account ?? PLATFORM),
      params: body,
      ids: route.pattern.exec(url.pathname)!.slice(1),
      base: this.url,
      cardOf: (id) => this.cards.get(id) ?? '4242424242424242',
      plans: this.plans,
    };
    let status = 200;
    let json: string;
    try {
      json = JSON.stringify(route.handle(context));
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      status = e.status;
      json = errorJson(e);
    }
    // Stripe keeps the answer of a request that ran (success, or a card error), not of one refused up front.
    if (idempotencyKey && (status < 400 || status === 402)) this.idempotent.set(scope, { fingerprint, status, body: json });
    if (fault?.kind === 'lose-answer') {
      entry.status = status;
      return req.socket.destroy();
    }
    send(status, json);
  }

  // Test helpers: what the hosted pages (onboarding, Checkout) would do, and Stripe's events.

  /** A snapshot of an object, wherever it is. */
  get(id: string): StripeObject {
    const found = this.ledger.find(id);
    if (!found) throw new Error(`fake Stripe: no object ${id}`);
    return structuredClone(found.o);
  }

  /** The objects of one type on an account (or the platform, null). */
  list(accountId: string | null, object: string): StripeObject[] {
    return this.ledger.list(accountId ?? PLATFORM, object).map((o) => structuredClone(o));
  }

  /** VIES answered about a customer's EU VAT id (Stripe checks it after answering the request). */
  checkTaxId(taxIdId: string, status: 'verified' | 'unverified' | 'unavailable', verifiedName: string | null = null): StripeObject {
    const t = this.ledger.get(PLATFORM, 'tax_id', taxIdId);
    t.verification = { status, verified_name: verifiedName, verified_address: null };
    return structuredClone(t);
  }

  /** The seller finished Express onboarding: details submitted, charges and payouts enabled. */
  completeOnboarding(accountId: string): StripeObject {
    const account = this.ledger.get(PLATFORM, 'account', accountId);
    const capabilities = Object.fromEntries(Object.keys((account.capabilities as object) ?? {}).map((k) => [k, 'active']));
    Object.assign(account, { details_submitted: true, charges_enabled: true, payouts_enabled: true, capabilities });
    return structuredClone(account);
  }

  /** A card saved on a customer of the account (as a setup Checkout would); its PaymentMethod id. */
  saveCard(accountId: string, customerId: string, card = '4242424242424242'): string {
    this.ledger.get(accountId, 'customer', customerId);
    return this.newCard(accountId, cardNumber(card), customerId).id;
  }

  /**
   * The payer finished the Checkout page with a test card. Setup mode: the card is saved on the
   * session's customer through a succeeded SetupIntent. Payment mode: a PaymentIntent is confirmed
   * on-session (3-D Secure passes); a declined card leaves the session open and the PaymentIntent failed.
   * Subscription mode: the card is saved on the customer (one is made if the session had none) and an
   * active subscription is created with the session's prices, quantities and `subscription_data[metadata]`
   * (read it with `get(session.subscription)`); a declined card leaves the session open.
   */
  completeCheckout(sessionId: string, card = '4242424242424242'): StripeObject {
    const found = this.ledger.find(sessionId);
    if (!found || found.o.object !== 'checkout.session') throw new Error(`fake Stripe: no checkout session ${sessionId}`);
    const { owner, o: session } = found;
    if (session.status !== 'open') throw new Error(`fake Stripe: checkout session ${sessionId} is ${String(session.status)}`);
    const number = cardNumber(card);
    const customer = session.customer as string | null;
    const plan = this.plans.get(sessionId)!;
    if (session.mode === 'subscription') {
      if (!TEST_CARDS[number]!.charge)
        completeSubscriptionCheckout(this.ledger, owner, session, plan, (c) => this.newCard(owner, number, c).id);
      return structuredClone(session);
    }
    if (session.mode === 'setup') {
      const pm = this.newCard(owner, number, customer);
      const si = this.ledger.put(owner, {
        id: newId('seti'),
        object: 'setup_intent',
        status: 'succeeded',
        usage: 'off_session',
        customer,
        payment_method: pm.id,
        metadata: plan.metadata,
        last_setup_error: null,
        created: now(),
        livemode: false,
      });
      Object.assign(session, { status: 'complete', setup_intent: si.id });
      return structuredClone(session);
    }
    const pm = this.newCard(owner, number, plan.setupFutureUsage && customer ? customer : null);
    const pi = this.ledger.put(
      owner,
      paymentIntent({
        amount: session.amount_total as number,
        customer,
        payment_method: pm.id,
        description: null,
        metadata: plan.metadata,
      }),
    );
    pi.setup_future_usage = plan.setupFutureUsage;
    const failure = confirm(pi, pm, number, false);
    if (pi.status === 'requires_action')
      Object.assign(pi, { status: 'succeeded', amount_received: pi.amount, latest_charge: newId('ch'), next_action: null });
    if (!failure) Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: pi.id });
    return structuredClone(session);
  }

  /** A webhook delivery of an event: its JSON body and `Stripe-Signature` header, signed with `secret`. */
  event(
    type: string,
    object: StripeObject | Record<string, unknown>,
    account: string | null = null,
    secret = this.webhookSecret,
  ): { payload: string; header: string; id: string } {
    const id = newId('evt');
    const event = {
      id,
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: now(),
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      ...(account ? { account } : {}),
    };
    const payload = JSON.stringify(event);
    return { payload, header: Stripe.webhooks.generateTestHeaderString({ payload, secret }), id };
  }

  private newCard(owner: string, number: string, customer: string | null): StripeObject {
    const pm = this.ledger.put(owner, paymentMethod(number, customer));
    this.cards.set(pm.id, number);
    return pm;
  }
}

export function startFakeStripe(options: { webhookSecret?: string } = {}): Promise<FakeStripe> {
  return new FakeStripe(options.webhookSecret).start();
}
