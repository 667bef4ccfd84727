import type { Db, DbOrTx } from '../../db/database';
import { CARD_MESSAGES, parseCardForm } from './sandbox-cards';
import { startSubscription } from './sandbox-subscriptions';
import { authenticatePayment, cardError, confirmPayment, newPaymentIntent, nowOf, type SandboxContext } from './sandbox-charges';
import {
  newPaymentMethod,
  type SandboxAccount,
  type SandboxAccountLink,
  type SandboxCheckoutSession,
  type SandboxPaymentIntent,
  type SandboxPaymentMethod,
  type SandboxRefund,
  type SandboxSetupIntent,
} from './sandbox-objects';
import {
  findObject,
  findWithAccount,
  getObject,
  insertObject,
  listExpiredSessions,
  listObjects,
  looksLikeId,
  newId,
  saveObject,
} from './sandbox-store';

/** After its first visit, an onboarding link stays usable for an hour (the form may take a while). */
const OPENED_LINK_TTL_S = 3600;

export type OnboardingView = { kind: 'form'; link: SandboxAccountLink; account: SandboxAccount; error?: string };
export type Redirect = { kind: 'redirect'; url: string };

export type CheckoutView = {
  kind: 'checkout';
  session: SandboxCheckoutSession;
  sellerName: string | null;
  /** open: the card form; authenticate: the bank's step; complete / expired: a message. */
  step: 'card' | 'authenticate' | 'complete' | 'expired';
  error?: { title: string; message: string };
};

export type CardForm = { number?: string; exp?: string; cvc?: string };

/**
 * What the sandbox's hosted pages do (`sandbox-pages.routes.ts` renders them): Connect onboarding,
 * Checkout in setup and payment mode with the bank's authentication step, the Express dashboard.
 * Each action runs in one transaction holding its object's row, so a double submit does it once.
 * `null`: no such object (the page answers 404).
 */
export class SandboxHosted {
  constructor(
    private readonly db: Db,
    private readonly ctx: SandboxContext,
  ) {}

  // --- Connect onboarding ---

  async openOnboarding(linkId: string): Promise<OnboardingView | Redirect | null> {
    if (!looksLikeId(linkId, 'acctlink_')) return null;
    return this.db.transaction(async (tx) => {
      const link = await findObject<SandboxAccountLink>(tx, 'account_link', linkId, { lock: true });
      if (!link) return null;
      if (this.linkSpent(link)) return { kind: 'redirect', url: link.refresh_url };
      if (!link.opened_at) await saveObject(tx, { ...link, opened_at: nowOf(this.ctx) });
      return { kind: 'form', link, account: await getObject<SandboxAccount>(tx, 'account', link.account) };
    });
  }

  async completeOnboarding(linkId: string, form: { businessName?: string; iban?: string }): Promise<OnboardingView | Redirect | null> {
    if (!looksLikeId(linkId, 'acctlink_')) return null;
    return this.db.transaction(async (tx) => {
      const link = await findObject<SandboxAccountLink>(tx, 'account_link', linkId, { lock: true });
      if (!link) return null;
      if (this.linkSpent(link)) return { kind: 'redirect', url: link.refresh_url };
      const account = await getObject<SandboxAccount>(tx, 'account', link.account, { lock: true });
      const name = (form.businessName ?? '').trim();
      const iban = (form.iban ?? '').replace(/\s/g, '').toUpperCase();
      if (!name || name.length > 100)
        return { kind: 'form', link, account, error: 'Escribe el nombre del negocio (hasta 100 caracteres).' };
      if (!validIban(iban)) return { kind: 'form', link, account, error: 'El IBAN no es válido: revisa los dígitos de control.' };
      const now = nowOf(this.ctx);
      Object.assign(account, {
        business_profile: { ...account.business_profile, name },
        details_submitted: true,
        charges_enabled: true,
        payouts_enabled: true,
        capabilities: { card_payments: 'active', transfers: 'active' },
        requirements: { currently_due: [], disabled_reason: null },
        external_accounts: {
          object: 'list',
          data: [{ id: newId('ba_'), object: 'bank_account', country: iban.slice(0, 2), currency: 'eur', last4: iban.slice(-4) }],
        },
      });
      await saveObject(tx, account);
      await saveObject(tx, { ...link, used_at: now });
      await this.ctx.webhooks.emit(tx, account.id, 'account.updated', account, now);
      return { kind: 'redirect', url: link.return_url };
    });
  }

  private linkSpent(link: SandboxAccountLink) {
    const now = nowOf(this.ctx);
    return link.used_at !== null || now > (link.opened_at ? link.opened_at + OPENED_LINK_TTL_S : link.expires_at);
  }

  // --- Checkout ---

  async checkout(sessionId: string): Promise<CheckoutView | null> {
    return this.inSession(
      sessionId,
      (tx, session, account) => this.view(tx, session, account),
      (tx, session) => this.view(tx, session, null),
    );
  }

  /** The card form's submit: saves the card (setup) or pays (payment), or asks the bank's authentication. */
  async submitCard(sessionId: string, form: CardForm): Promise<CheckoutView | Redirect | null> {
    return this.inSession(
      sessionId,
      async (tx, session, account) => {
        if (session.status !== 'open') return this.afterSubmit(tx, session, account);
        const parsed = parseCardForm(form, this.ctx.clock());
        if ('error' in parsed) return this.view(tx, session, account, { title: 'Revisa los datos de la tarjeta', message: parsed.error });
        const now = nowOf(this.ctx);
        // The card is a new PaymentMethod each time, as Checkout makes one per attempt.
        const newCard = () => insertObject(tx, newPaymentMethod(parsed, null, now), { account });
        if (session.mode === 'setup') {
          const si = await this.setupIntentOf(tx, session, account);
          if (si.status === 'requires_action') return this.view(tx, session, account);
          const pm = await newCard();
          if (parsed.card.setup === 'ok') return this.completeSetup(tx, session, account, si, pm);
          if (parsed.card.setup === 'authenticate') {
            Object.assign(si, {
              status: 'requires_action',
              payment_method: pm.id,
              next_action: { type: 'use_stripe_sdk' },
              last_setup_error: null,
            });
            await saveObject(tx, si);
            await this.ctx.webhooks.emit(tx, account, 'setup_intent.requires_action', si, now);
            return this.view(tx, session, account);
          }
          return this.failSetup(
            tx,
            session,
            account,
            si,
            cardError('card_declined', parsed.card.declineCode ?? 'generic_decline', pm, null),
          );
        }
        const pi = await this.paymentIntentOf(tx, session, account);
        if (pi.status === 'requires_action') return this.view(tx, session, account);
        if (pi.status === 'canceled') return this.expire(tx, session, account);
        await confirmPayment(tx, this.ctx, account, pi, await newCard(), 'on');
        return this.afterPayment(tx, session, account, pi);
      },
      (tx, session) => this.submitSubscriptionCard(tx, session, form),
    );
  }

  /** The bank's step: «Autorizar» completes what waited for it, «Rechazar» fails it (the form again). */
  async authenticate(sessionId: string, approve: boolean): Promise<CheckoutView | Redirect | null> {
    return this.inSession(
      sessionId,
      async (tx, session, account) => {
        if (session.status !== 'open') return this.afterSubmit(tx, session, account);
        if (session.mode === 'setup') {
          const si = session.setup_intent
            ? await getObject<SandboxSetupIntent>(tx, 'setup_intent', session.setup_intent, { account, lock: true })
            : null;
          if (si?.status !== 'requires_action') return this.view(tx, session, account);
          const pm = await getObject<SandboxPaymentMethod>(tx, 'payment_method', si.payment_method!, { account });
          if (approve) return this.completeSetup(tx, session, account, si, pm);
          return this.failSetup(tx, session, account, si, cardError('setup_intent_authentication_failure', null, pm, null));
        }
        const pi = session.payment_intent
          ? await getObject<SandboxPaymentIntent>(tx, 'payment_intent', session.payment_intent, { account, lock: true })
          : null;
        if (pi?.status !== 'requires_action') return this.view(tx, session, account);
        await authenticatePayment(tx, this.ctx, account, pi, approve);
        return this.afterPayment(tx, session, account, pi);
      },
      (tx, session) => this.authenticateSubscription(tx, session, approve),
    );
  }

  // --- Checkout in subscription mode, on the platform account (Diván's own plans) ---

  /** The card pays the first period: the subscription starts, or the bank asks first, or it is declined. */
  private async submitSubscriptionCard(tx: DbOrTx, session: SandboxCheckoutSession, form: CardForm): Promise<CheckoutView | Redirect> {
    if (session.status !== 'open') return this.afterSubmit(tx, session, null);
    if (session.pending_payment_method) return this.view(tx, session, null);
    const parsed = parseCardForm(form, this.ctx.clock());
    if ('error' in parsed) return this.view(tx, session, null, { title: 'Revisa los datos de la tarjeta', message: parsed.error });
    const pm = await insertObject(tx, newPaymentMethod(parsed, null, nowOf(this.ctx)), { account: null });
    if (parsed.card.onSession === 'decline') {
      const code = parsed.card.declineCode ?? 'generic_decline';
      return this.view(tx, session, null, { title: 'Tarjeta rechazada', message: CARD_MESSAGES[code] ?? CARD_MESSAGES.generic_decline! });
    }
    if (parsed.card.onSession === 'authenticate') {
      await saveObject(tx, Object.assign(session, { pending_payment_method: pm.id }));
      return this.view(tx, session, null);
    }
    await startSubscription(tx, this.ctx, session, pm);
    return successRedirect(session);
  }

  private async authenticateSubscription(tx: DbOrTx, session: SandboxCheckoutSession, approve: boolean): Promise<CheckoutView | Redirect> {
    if (session.status !== 'open') return this.afterSubmit(tx, session, null);
    if (!session.pending_payment_method) return this.view(tx, session, null);
    const pm = await getObject<SandboxPaymentMethod>(tx, 'payment_method', session.pending_payment_method, { account: null });
    if (!approve) {
      await saveObject(tx, Object.assign(session, { pending_payment_method: null }));
      return this.view(tx, session, null, {
        title: 'Autenticación rechazada',
        message: CARD_MESSAGES.payment_intent_authentication_failure!,
      });
    }
    await startSubscription(tx, this.ctx, session, pm);
    return successRedirect(session);
  }

  /** Open sessions past their `expires_at` expire (checkout.session.expired), their pending PaymentIntent canceled: a batch per call. */
  async expireSessions(): Promise<number> {
    const due = await listExpiredSessions(this.db, nowOf(this.ctx), 50);
    for (const { id } of due) await this.inSession(id, async () => null);
    return due.length;
  }

  /**
   * Runs `fn` on an open session (locked), after expiring it if its time is up; a session of the
   * platform account (Diván's own plans, account null) goes to `platform`.
   */
  private async inSession<T, P = never>(
    sessionId: string,
    fn: (tx: DbOrTx, session: SandboxCheckoutSession, account: string | null) => Promise<T>,
    platform?: (tx: DbOrTx, session: SandboxCheckoutSession) => Promise<P>,
  ): Promise<T | P | CheckoutView | null> {
    if (!looksLikeId(sessionId, 'cs_test_')) return null;
    return this.db.transaction(async (tx) => {
      const found = await findWithAccount<SandboxCheckoutSession>(tx, 'checkout.session', sessionId, { lock: true });
      if (!found) return null;
      const { data: session, account } = found;
      if (session.status === 'open' && nowOf(this.ctx) > session.expires_at) return this.expire(tx, session, account);
      // The platform's own subscriptions have their page; its payments (a gift of Diván) are paid like a connected account's.
      if (account === null && session.mode !== 'payment') return platform ? platform(tx, session) : null;
      return fn(tx, session, account);
    });
  }

  private async expire(tx: DbOrTx, session: SandboxCheckoutSession, account: string | null): Promise<CheckoutView> {
    const now = nowOf(this.ctx);
    if (session.payment_intent) {
      const pi = await getObject<SandboxPaymentIntent>(tx, 'payment_intent', session.payment_intent, { account, lock: true });
      if (pi.status === 'requires_payment_method' || pi.status === 'requires_action') {
        Object.assign(pi, { status: 'canceled', canceled_at: now, cancellation_reason: 'abandoned', next_action: null });
        await saveObject(tx, pi);
        await this.ctx.webhooks.emit(tx, account, 'payment_intent.canceled', pi, now);
      }
    }
    Object.assign(session, { status: 'expired', url: null });
    await saveObject(tx, session);
    await this.ctx.webhooks.emit(tx, account, 'checkout.session.expired', session, now);
    return this.view(tx, session, account);
  }

  /** A submit on a session no longer open: a double submit of a completed one goes where the first did. */
  private afterSubmit(tx: DbOrTx, session: SandboxCheckoutSession, account: string | null): Promise<CheckoutView | Redirect> {
    if (session.status === 'complete') return Promise.resolve(successRedirect(session));
    return this.view(tx, session, account);
  }

  private async afterPayment(
    tx: DbOrTx,
    session: SandboxCheckoutSession,
    account: string | null,
    pi: SandboxPaymentIntent,
  ): Promise<CheckoutView | Redirect> {
    if (pi.status === 'requires_action') return this.view(tx, session, account);
    if (pi.status !== 'succeeded') {
      const code = pi.last_payment_error?.decline_code ?? pi.last_payment_error?.code ?? 'generic_decline';
      const title = code === 'payment_intent_authentication_failure' ? 'Autenticación rechazada' : 'Tarjeta rechazada';
      return this.view(tx, session, account, { title, message: CARD_MESSAGES[code] ?? CARD_MESSAGES.generic_decline! });
    }
    const now = nowOf(this.ctx);
    Object.assign(session, { status: 'complete', payment_status: 'paid', customer_details: { email: session.customer_email } });
    await saveObject(tx, session);
    await this.ctx.webhooks.emit(tx, account, 'checkout.session.completed', session, now);
    return successRedirect(session);
  }

  private async completeSetup(
    tx: DbOrTx,
    session: SandboxCheckoutSession,
    account: string | null,
    si: SandboxSetupIntent,
    pm: SandboxPaymentMethod,
  ): Promise<Redirect> {
    const now = nowOf(this.ctx);
    pm.customer = session.customer;
    await saveObject(tx, pm);
    if (pm.customer) await this.ctx.webhooks.emit(tx, account, 'payment_method.attached', pm, now);
    Object.assign(si, { status: 'succeeded', payment_method: pm.id, next_action: null, last_setup_error: null });
    await saveObject(tx, si);
    await this.ctx.webhooks.emit(tx, account, 'setup_intent.succeeded', si, now);
    Object.assign(session, { status: 'complete', setup_intent: si.id });
    await saveObject(tx, session);
    await this.ctx.webhooks.emit(tx, account, 'checkout.session.completed', session, now);
    return successRedirect(session);
  }

  private async failSetup(
    tx: DbOrTx,
    session: SandboxCheckoutSession,
    account: string | null,
    si: SandboxSetupIntent,
    error: ReturnType<typeof cardError>,
  ): Promise<CheckoutView> {
    Object.assign(si, { status: 'requires_payment_method', payment_method: null, next_action: null, last_setup_error: error });
    await saveObject(tx, si);
    await this.ctx.webhooks.emit(tx, account, 'setup_intent.setup_failed', si, nowOf(this.ctx));
    const title = error.code === 'setup_intent_authentication_failure' ? 'Autenticación rechazada' : 'Tarjeta rechazada';
    return this.view(tx, session, account, { title, message: error.message });
  }

  private async setupIntentOf(tx: DbOrTx, session: SandboxCheckoutSession, account: string | null): Promise<SandboxSetupIntent> {
    if (session.setup_intent) return getObject<SandboxSetupIntent>(tx, 'setup_intent', session.setup_intent, { account, lock: true });
    const si: SandboxSetupIntent = {
      id: newId('seti_'),
      object: 'setup_intent',
      status: 'requires_payment_method',
      usage: 'off_session',
      customer: session.customer,
      payment_method: null,
      last_setup_error: null,
      next_action: null,
      metadata: { ...session.metadata },
      created: nowOf(this.ctx),
      livemode: false,
    };
    await insertObject(tx, si, { account });
    await saveObject(tx, Object.assign(session, { setup_intent: si.id }));
    return si;
  }

  /** One PaymentIntent per session, confirmed again after a decline (as Checkout does). */
  private async paymentIntentOf(tx: DbOrTx, session: SandboxCheckoutSession, account: string | null): Promise<SandboxPaymentIntent> {
    if (session.payment_intent)
      return getObject<SandboxPaymentIntent>(tx, 'payment_intent', session.payment_intent, { account, lock: true });
    const data = session.payment_intent_data ?? { description: '', metadata: {} };
    const pi = newPaymentIntent({
      amount: session.amount_total ?? 0,
      customer: session.customer,
      description: data.description || null,
      metadata: data.metadata,
      created: nowOf(this.ctx),
    });
    await insertObject(tx, pi, { account });
    await saveObject(tx, Object.assign(session, { payment_intent: pi.id }));
    return pi;
  }

  private async view(
    tx: DbOrTx,
    session: SandboxCheckoutSession,
    account: string | null,
    error?: CheckoutView['error'],
  ): Promise<CheckoutView> {
    // The platform's own Checkout sells Diván; a connected account's, its business.
    const seller = account ? await findObject<SandboxAccount>(tx, 'account', account) : null;
    const sellerName = account ? (seller?.business_profile.name ?? null) : 'Diván';
    const base = { kind: 'checkout' as const, session, sellerName, ...(error ? { error } : {}) };
    if (session.status === 'complete') return { ...base, step: 'complete' };
    if (session.status === 'expired') return { ...base, step: 'expired' };
    if (session.mode === 'subscription') return { ...base, step: session.pending_payment_method ? 'authenticate' : 'card' };
    const pendingId = session.mode === 'setup' ? session.setup_intent : session.payment_intent;
    const pending = pendingId
      ? await findObject<SandboxSetupIntent | SandboxPaymentIntent>(
          tx,
          session.mode === 'setup' ? 'setup_intent' : 'payment_intent',
          pendingId,
          { account },
        )
      : null;
    return { ...base, step: pending?.status === 'requires_action' ? 'authenticate' : 'card' };
  }

  // --- Express dashboard ---

  async dashboard(accountId: string): Promise<{
    account: SandboxAccount;
    payments: (SandboxPaymentIntent & { card: SandboxPaymentMethod['card'] | null })[];
    refunds: SandboxRefund[];
  } | null> {
    if (!looksLikeId(accountId, 'acct_')) return null;
    const account = await findObject<SandboxAccount>(this.db, 'account', accountId, { account: accountId });
    if (!account) return null;
    const intents = await listObjects<SandboxPaymentIntent>(this.db, 'payment_intent', accountId);
    const methods = new Map((await listObjects<SandboxPaymentMethod>(this.db, 'payment_method', accountId, 1000)).map((pm) => [pm.id, pm]));
    const refunds = await listObjects<SandboxRefund>(this.db, 'refund', accountId);
    return {
      account,
      payments: intents.map((pi) => ({ ...pi, card: (pi.payment_method && methods.get(pi.payment_method)?.card) || null })),
      refunds,
    };
  }
}

function successRedirect(session: SandboxCheckoutSession): Redirect {
  return { kind: 'redirect', url: session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id) };
}

/** ISO 13616: two letters, two check digits, the account; mod 97 of the rearranged number is 1. */
export function validIban(iban: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(iban)) return false;
  const digits = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rem = 0;
  for (const d of digits) rem = (rem * 10 + Number(d)) % 97;
  return rem === 1;
}
