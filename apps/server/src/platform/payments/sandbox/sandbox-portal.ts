/**
 * The sandbox's Customer Portal (Stripe's `billing_portal.session`): where a customer of the platform
 * (a workspace paying Diván) sees its subscription and invoices and manages its cards — add one (made
 * the subscription's default), remove one that is not the default. Its page is `portalPage`; the id in
 * the path is the token, usable for an hour, as Stripe's portal sessions are short-lived.
 */
import type { SandboxRenewals } from './sandbox-renewals';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { DEFAULT_TIME_ZONE, formatCents } from '@divan/core';
import type { Db, DbOrTx } from '../../db/database';
import { escapeHtml as e } from '../../mail/layout';
import { parseCardForm } from './sandbox-cards';
import { nowOf, type SandboxContext } from './sandbox-charges';
import { newPaymentMethod, type SandboxCustomer, type SandboxPaymentMethod } from './sandbox-objects';
import { page } from './sandbox-pages.html';
import { findObject, getObject, insertObject, looksLikeId, newId, saveObject, type StripeObject } from './sandbox-store';
import type { SandboxInvoice, SandboxSubscription } from './sandbox-subscriptions';
import { sandboxObjects } from './sandbox.tables';

const PORTAL_TTL_S = 3600;

export type SandboxPortalSession = StripeObject & {
  object: 'billing_portal.session';
  customer: string;
  return_url: string;
  url: string;
  created: number;
  expires_at: number;
  livemode: false;
};

export type PortalView = {
  session: SandboxPortalSession;
  customer: SandboxCustomer;
  subscriptions: SandboxSubscription[];
  cards: SandboxPaymentMethod[];
  invoices: SandboxInvoice[];
  defaultCard: string | null;
  error?: string;
  notice?: string;
};

/** The platform's objects of a customer, newest first. */
async function ofCustomer<T>(db: DbOrTx, type: string, customer: string): Promise<T[]> {
  const rows = await db
    .select({ data: sandboxObjects.data })
    .from(sandboxObjects)
    .where(and(eq(sandboxObjects.type, type), isNull(sandboxObjects.account), sql`${sandboxObjects.data}->>'customer' = ${customer}`))
    .orderBy(sql`${sandboxObjects.createdAt} desc`)
    .limit(100);
  return rows.map((r) => r.data as T);
}

export class SandboxPortal {
  constructor(
    private readonly db: Db,
    private readonly ctx: SandboxContext,
    /** `${publicUrl}/sandbox/stripe`. */
    private readonly base: string,
    private readonly renewals: SandboxRenewals,
  ) {}

  async create(customerId: string, returnUrl: string): Promise<{ id: string; url: string }> {
    await getObject<SandboxCustomer>(this.db, 'customer', customerId, { account: null });
    const id = newId('bps_');
    const now = nowOf(this.ctx);
    const session: SandboxPortalSession = {
      id,
      object: 'billing_portal.session',
      customer: customerId,
      return_url: returnUrl,
      url: `${this.base}/portal/${id}`,
      created: now,
      expires_at: now + PORTAL_TTL_S,
      livemode: false,
    };
    await insertObject(this.db, session, { account: null });
    return { id, url: session.url };
  }

  /** The portal's page data, or null for an unknown or expired session. */
  view(sessionId: string, extra: Pick<PortalView, 'error' | 'notice'> = {}): Promise<PortalView | null> {
    return this.inSession(sessionId, (tx, s) => this.load(tx, s, extra));
  }

  /** A new card, made the default of the customer's subscriptions (a declined one is refused). */
  addCard(sessionId: string, form: { number?: string; exp?: string; cvc?: string }): Promise<PortalView | null> {
    return this.inSession(sessionId, async (tx, s) => {
      const parsed = parseCardForm(form, this.ctx.clock());
      if ('error' in parsed) return this.load(tx, s, { error: parsed.error });
      if (parsed.card.setup === 'decline') return this.load(tx, s, { error: 'Tu tarjeta ha sido rechazada. Prueba con otra.' });
      const now = nowOf(this.ctx);
      const pm = await insertObject(tx, newPaymentMethod(parsed, s.customer, now), { account: null });
      await this.ctx.webhooks.emit(tx, null, 'payment_method.attached', pm, now);
      for (const sub of await ofCustomer<SandboxSubscription>(tx, 'subscription', s.customer)) {
        if (sub.status === 'canceled') continue;
        sub.default_payment_method = pm.id;
        await saveObject(tx, sub);
        await this.ctx.webhooks.emit(tx, null, 'customer.subscription.updated', sub, now);
        // An invoice left open by a declined renewal is tried with it at once.
        await this.renewals.retryWithNewCard(tx, sub, now);
      }
      return this.load(tx, s, { notice: `Tarjeta ···· ${pm.card.last4} añadida: es la que se cobrará a partir de ahora.` });
    });
  }

  /** Removes a card that is not the default of a subscription in force (the portal never leaves one without). */
  removeCard(sessionId: string, paymentMethodId: string): Promise<PortalView | null> {
    return this.inSession(sessionId, async (tx, s) => {
      const pm = looksLikeId(paymentMethodId, 'pm_')
        ? await findObject<SandboxPaymentMethod>(tx, 'payment_method', paymentMethodId, { account: null, lock: true })
        : null;
      if (!pm || pm.customer !== s.customer) return this.load(tx, s, { error: 'Esa tarjeta no es de esta cuenta.' });
      const subs = await ofCustomer<SandboxSubscription>(tx, 'subscription', s.customer);
      if (subs.some((sub) => sub.status !== 'canceled' && sub.default_payment_method === pm.id))
        return this.load(tx, s, { error: 'Es la tarjeta con la que se paga tu plan: añade otra antes de quitarla.' });
      pm.customer = null;
      await saveObject(tx, pm);
      await this.ctx.webhooks.emit(tx, null, 'payment_method.detached', pm, nowOf(this.ctx));
      return this.load(tx, s, { notice: `Tarjeta ···· ${pm.card.last4} eliminada.` });
    });
  }

  private async inSession<T>(sessionId: string, fn: (tx: DbOrTx, s: SandboxPortalSession) => Promise<T>): Promise<T | null> {
    if (!looksLikeId(sessionId, 'bps_')) return null;
    return this.db.transaction(async (tx) => {
      const s = await findObject<SandboxPortalSession>(tx, 'billing_portal.session', sessionId, { account: null, lock: true });
      if (!s || nowOf(this.ctx) > s.expires_at) return null;
      return fn(tx, s);
    });
  }

  private async load(tx: DbOrTx, session: SandboxPortalSession, extra: Pick<PortalView, 'error' | 'notice'>): Promise<PortalView> {
    const subscriptions = await ofCustomer<SandboxSubscription>(tx, 'subscription', session.customer);
    const live = subscriptions.find((s) => s.status !== 'canceled');
    return {
      session,
      customer: await getObject<SandboxCustomer>(tx, 'customer', session.customer, { account: null }),
      subscriptions,
      cards: await ofCustomer<SandboxPaymentMethod>(tx, 'payment_method', session.customer),
      invoices: await ofCustomer<SandboxInvoice>(tx, 'invoice', session.customer),
      defaultCard: live?.default_payment_method ?? null,
      ...extra,
    };
  }
}

const day = (seconds: number) => new Date(seconds * 1000).toLocaleDateString('es-ES', { timeZone: DEFAULT_TIME_ZONE });
const STATUS: Record<string, string> = { active: 'Activa', trialing: 'En prueba', past_due: 'Pago pendiente', canceled: 'Cancelada' };

/** The portal as plain HTML (no JavaScript: forms post back), every value escaped. */
export function portalPage(v: PortalView): string {
  const subs = v.subscriptions
    .map((s) => {
      const item = s.items.data[0];
      const end = item?.current_period_end;
      const renews =
        s.status === 'canceled' ? 'Terminada' : s.cancel_at_period_end ? `Termina el ${day(end ?? 0)}` : `Se renueva el ${day(end ?? 0)}`;
      return `<li><strong>${e(STATUS[s.status] ?? s.status)}</strong> · ${item?.quantity ?? 1} × ${e(formatCents(item?.price.unit_amount ?? 0))} · ${e(renews)}</li>`;
    })
    .join('');
  const cards = v.cards.length
    ? v.cards
        .map(
          (c) =>
            `<li>${e(c.card.brand === 'visa' ? 'Visa' : 'Mastercard')} ···· ${e(c.card.last4)} · caduca ${String(c.card.exp_month).padStart(2, '0')}/${String(c.card.exp_year).slice(-2)}${
              c.id === v.defaultCard
                ? ' <strong>(la que paga tu plan)</strong>'
                : `<form method="post" action="${e(v.session.id)}/quitar"><input type="hidden" name="paymentMethod" value="${e(c.id)}"><button type="submit" class="no">Quitar ···· ${e(c.card.last4)}</button></form>`
            }</li>`,
        )
        .join('')
    : '<li>Ninguna tarjeta guardada.</li>';
  const invoices = v.invoices.length
    ? `<div class="scroll"><table><thead><tr><th>Fecha</th><th>Importe</th><th>Estado</th></tr></thead><tbody>${v.invoices
        .map(
          (i) =>
            `<tr><td>${e(day(i.created))}</td><td>${e(formatCents(i.total))}</td><td>${i.status === 'paid' ? 'Pagado' : e(String(i.status))}</td></tr>`,
        )
        .join('')}</tbody></table></div><p class="muted">Son los recibos del cobro; las facturas de Diván están en la aplicación.</p>`
    : '<p class="muted">Todavía no hay cobros.</p>';
  return page(
    'Portal de cliente',
    `<div class="box"><p class="muted">Cuenta de <strong>${e(v.customer.name)}</strong> en Diván</p><h1>Tu suscripción y tus tarjetas</h1>
${v.error ? `<div class="error" role="alert">${e(v.error)}</div>` : ''}${v.notice ? `<div class="ok" role="status">${e(v.notice)}</div>` : ''}
<h2>Suscripción</h2><ul>${subs || '<li>Sin suscripción.</li>'}</ul>
<h2>Tarjetas</h2><ul>${cards}</ul>
<form method="post" action="${e(v.session.id)}"><h2>Añadir una tarjeta</h2>
<label for="number">Número de tarjeta</label><input id="number" name="number" inputmode="numeric" autocomplete="cc-number" required>
<div class="row"><div><label for="exp">Caducidad (MM/AA)</label><input id="exp" name="exp" inputmode="numeric" autocomplete="cc-exp" required></div>
<div><label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" maxlength="4" required></div></div>
<button type="submit">Añadir tarjeta</button></form>
<h2>Cobros</h2>${invoices}
<a class="back" href="${e(v.session.return_url)}">Volver a Diván</a></div>`,
  );
}
