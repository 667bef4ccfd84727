import { DEFAULT_TIME_ZONE, formatCents } from '@divan/core';
import { escapeHtml as e } from '../../mail/layout';
import { groupDigits, TEST_CARDS } from './sandbox-cards';
import type { CheckoutView, OnboardingView } from './sandbox-hosted';
import type { SandboxAccount, SandboxPaymentIntent, SandboxPaymentMethod, SandboxRefund } from './sandbox-objects';

/**
 * The sandbox's hosted pages as plain HTML: Spanish, phone first, no JavaScript (forms post back), one
 * `<style>` block (the CSP allows inline styles), every value escaped. A banner on every page says
 * nothing real is charged.
 */
export const TEST_BANNER = 'MODO DE PRUEBA — no se cobra dinero real';
/** What the onboarding form proposes: a valid Spanish IBAN of Stripe's test data. */
export const TEST_IBAN = 'ES91 2100 0418 4502 0005 1332';

const CSS = `*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2a2a;background:#f6f4f0}
.banner{background:#fff3c4;color:#5c4300;border-bottom:1px solid #e8d48a;text-align:center;font-weight:700;font-size:.85rem;padding:.55rem 1rem;letter-spacing:.02em}
main{max-width:28rem;margin:0 auto;padding:1.25rem 1rem 3rem}main.wide{max-width:64rem}
.box{background:#fff;border:1px solid #e4ded6;border-radius:14px;padding:1.25rem;margin-bottom:1rem}
h1{font-size:1.35rem;line-height:1.3;margin:.25rem 0 .75rem}h2{font-size:1.1rem;margin:0 0 .5rem}
.amount{font-size:2rem;font-weight:700;margin:.25rem 0}.muted{color:#5f6b6b;font-size:.9rem}
label{display:block;font-weight:600;font-size:.9rem;margin:.9rem 0 .3rem}
input{width:100%;font:inherit;padding:.7rem .8rem;border:1px solid #c9c2b8;border-radius:10px;background:#fff}
.row{display:flex;gap:.75rem}.row>div{flex:1}
button{width:100%;font:inherit;font-weight:600;padding:.8rem 1rem;border:0;border-radius:10px;background:#2f6f68;color:#fff;margin-top:1.1rem;cursor:pointer}
button.no{background:#fff;color:#8a1c1c;border:1px solid #d9b1b1;margin-top:.6rem}
.error{background:#fdecec;border:1px solid #f0b8b8;color:#7a1717;border-radius:10px;padding:.75rem 1rem;margin-bottom:1rem}
.ok{background:#e7f4ef;border:1px solid #b5dccb;border-radius:10px;padding:.75rem 1rem}
ul.cards{font-size:.85rem;padding-left:1.1rem;margin:.5rem 0 0}code{font-family:ui-monospace,Menlo,monospace;white-space:nowrap}
a.back{display:block;text-align:center;margin-top:1rem;color:#5f6b6b}
.scroll{overflow-x:auto}table{width:100%;border-collapse:collapse;font-size:.9rem}th,td{text-align:left;padding:.5rem;border-bottom:1px solid #eee;vertical-align:top}th{font-size:.8rem;color:#5f6b6b}`;

export function page(title: string, body: string, opts: { wide?: boolean } = {}): string {
  return `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${e(title)} · Stripe (prueba)</title><style>${CSS}</style></head><body><div class="banner" role="note">${TEST_BANNER}</div><main${opts.wide ? ' class="wide"' : ''}>${body}</main></body></html>`;
}

export const notFoundPage = () =>
  page(
    'No encontrado',
    `<div class="box"><h1>Esta página no existe</h1><p>El enlace no es válido o ya no existe. Vuelve a la aplicación y empieza de nuevo desde allí.</p></div>`,
  );

export const errorPage = (status: number) =>
  page(
    'Error',
    status < 500
      ? `<div class="box"><h1>No hemos entendido la petición</h1><p>Vuelve atrás y envía el formulario de nuevo.</p></div>`
      : `<div class="box"><h1>Algo ha fallado</h1><p>No se ha podido completar la operación. Inténtalo de nuevo en unos minutos.</p></div>`,
  );

const errorBox = (err: { title: string; message: string } | string | undefined) =>
  !err
    ? ''
    : typeof err === 'string'
      ? `<div class="error" role="alert">${e(err)}</div>`
      : `<div class="error" role="alert"><strong>${e(err.title)}</strong><br>${e(err.message)}</div>`;

export function onboardingPage(view: OnboardingView, form?: { businessName?: string; iban?: string }): string {
  const { account, link } = view;
  const name = form?.businessName ?? account.business_profile.name ?? 'Consulta de prueba';
  return page(
    'Alta en pagos con tarjeta',
    `<div class="box"><h1>Alta en pagos con tarjeta</h1>
<p class="muted">Así sería el alta en Stripe. En modo de prueba bastan estos datos; no se comprueba nada y no se abre ninguna cuenta real.</p>
${errorBox(view.error)}
<form method="post" action="${e(link.id)}">
<label for="businessName">Nombre del negocio</label><input id="businessName" name="businessName" value="${e(name)}" maxlength="100" required autocomplete="organization">
${account.email ? `<label>Correo</label><p class="muted">${e(account.email)}</p>` : ''}
<label for="iban">IBAN para recibir los pagos</label><input id="iban" name="iban" value="${e(form?.iban ?? TEST_IBAN)}" required autocomplete="off" spellcheck="false">
<button type="submit">Completar datos de prueba</button>
</form>
<a class="back" href="${e(link.return_url)}">Salir sin completar</a></div>`,
  );
}

export function checkoutPage(view: CheckoutView, form?: { number?: string; exp?: string; cvc?: string }, now = new Date()): string {
  const s = view.session;
  // A subscription (Diván's own plans) pays its first period now, as a payment does.
  const item = s.mode === 'subscription' ? s.line_items?.[0] : undefined;
  const payment = s.mode === 'payment' || !!item;
  const amount = payment ? formatCents(s.amount_total ?? 0) : '';
  const seller = view.sellerName ? `<p class="muted">${payment ? 'Pago a' : 'Para'} <strong>${e(view.sellerName)}</strong></p>` : '';
  const head = item
    ? `${seller}<h1>${e(item.description)}</h1><p class="amount">${e(amount)} <span class="muted">+ IVA ${item.interval === 'year' ? 'al año' : 'al mes'}</span></p><p class="muted">${item.quantity} ${item.quantity === 1 ? 'usuario' : 'usuarios'} × ${e(formatCents(item.unit_amount))}. Se renueva sola hasta que la canceles.</p>`
    : payment
      ? `${seller}<h1>${e(s.payment_intent_data?.description || 'Pago')}</h1><p class="amount">${e(amount)}</p>`
      : `${seller}<h1>Guardar tarjeta para pagos futuros</h1><p class="muted">${e(view.sellerName ?? 'El profesional')} podrá cobrar con esta tarjeta los importes acordados sin que tengas que estar presente.</p>`;
  const back = (label: string, url: string) => `<a class="back" href="${e(url)}">${label}</a>`;
  if (view.step === 'complete')
    return page(
      payment ? 'Pago completado' : 'Tarjeta guardada',
      `<div class="box">${head}<div class="ok">${payment ? 'Este pago ya se ha completado.' : 'La tarjeta ya se ha guardado.'} Puedes cerrar esta página.</div>${back('Volver', s.success_url.replaceAll('{CHECKOUT_SESSION_ID}', s.id))}</div>`,
    );
  if (view.step === 'expired')
    return page(
      'Página caducada',
      `<div class="box">${head}<div class="error">Esta página de ${payment ? 'pago' : 'tarjeta'} ha caducado o ya no está disponible. Vuelve al enlace que recibiste para empezar de nuevo.</div>${back('Volver', s.cancel_url)}</div>`,
    );
  if (view.step === 'authenticate')
    return page(
      'Autenticación del banco',
      `<div class="box">${head}${errorBox(view.error)}<h2>Autenticación del banco (prueba)</h2>
<p>Tu banco pide confirmar ${payment ? `este pago de <strong>${e(amount)}</strong>` : 'que esta tarjeta es tuya'}. Aquí lo haría tu banco (una notificación en el móvil, un código); en modo de prueba, elige qué responde.</p>
<form method="post" action="${e(s.id)}/autenticar"><button type="submit" name="decision" value="approve">Autorizar</button><button type="submit" name="decision" value="reject" class="no">Rechazar</button></form>
${back('Cancelar y volver', s.cancel_url)}</div>`,
    );
  const year = String((now.getUTCFullYear() + 3) % 100).padStart(2, '0');
  const cards = TEST_CARDS.map((c) => `<li><code>${e(groupDigits(c.number))}</code> — ${e(c.label)}</li>`).join('');
  return page(
    payment ? 'Pagar' : 'Guardar tarjeta',
    `<div class="box">${head}${errorBox(view.error)}
<form method="post" action="${e(s.id)}">
<label for="number">Número de tarjeta</label><input id="number" name="number" value="${e(form?.number ?? '4242 4242 4242 4242')}" inputmode="numeric" autocomplete="cc-number" required>
<div class="row"><div><label for="exp">Caducidad (MM/AA)</label><input id="exp" name="exp" value="${e(form?.exp ?? `12/${year}`)}" inputmode="numeric" autocomplete="cc-exp" required></div>
<div><label for="cvc">CVC</label><input id="cvc" name="cvc" value="${e(form?.cvc ?? '123')}" inputmode="numeric" autocomplete="cc-csc" maxlength="4" required></div></div>
<button type="submit">${item ? 'Suscribirse' : payment ? `Pagar ${e(amount)}` : 'Guardar tarjeta'}</button>
</form>
${back('Cancelar y volver', s.cancel_url)}</div>
<div class="box"><h2>Tarjetas de prueba</h2><p class="muted">Cualquier fecha futura y cualquier CVC.</p><ul class="cards">${cards}</ul></div>`,
  );
}

const STATUS: Record<string, string> = {
  succeeded: 'Pagado',
  requires_action: 'Esperando autenticación',
  processing: 'Procesando',
  canceled: 'Cancelado',
};
const dateOf = (seconds: number) =>
  new Date(seconds * 1000).toLocaleString('es-ES', { timeZone: DEFAULT_TIME_ZONE, dateStyle: 'short', timeStyle: 'short' });

type DashboardData = {
  account: SandboxAccount;
  payments: (SandboxPaymentIntent & { card: SandboxPaymentMethod['card'] | null })[];
  refunds: SandboxRefund[];
};

export function dashboardPage({ account, payments, refunds }: DashboardData): string {
  const refunded = new Map<string, number>();
  for (const r of refunds) refunded.set(r.payment_intent, (refunded.get(r.payment_intent) ?? 0) + r.amount);
  const status = (pi: SandboxPaymentIntent) =>
    STATUS[pi.status] ?? (pi.last_payment_error ? `Fallido: ${pi.last_payment_error.message}` : 'Sin completar');
  const paymentRows = payments
    .map(
      (pi) =>
        `<tr><td>${e(dateOf(pi.created))}</td><td>${e(formatCents(pi.amount))}</td><td>${e(status(pi))}</td><td>${pi.card ? `${e(pi.card.brand)} ···· ${e(pi.card.last4)}` : '—'}</td><td>${e(pi.description ?? '')}</td><td>${refunded.has(pi.id) ? e(formatCents(refunded.get(pi.id)!)) : '—'}</td><td><code>${e(pi.id)}</code></td></tr>`,
    )
    .join('');
  const refundRows = refunds
    .map(
      (r) =>
        `<tr><td>${e(dateOf(r.created))}</td><td>${e(formatCents(r.amount))}</td><td>${r.status === 'succeeded' ? 'Reembolsado' : e(r.status)}</td><td><code>${e(r.payment_intent)}</code></td><td><code>${e(r.id)}</code></td></tr>`,
    )
    .join('');
  const flags = `Cobros ${account.charges_enabled ? 'activos' : 'desactivados'} · Transferencias a tu banco ${account.payouts_enabled ? 'activas' : 'desactivadas'}`;
  return page(
    'Panel de pagos',
    `<div class="box"><h1>Panel de pagos de ${e(account.business_profile.name ?? 'la cuenta')}</h1><p class="muted">Cuenta <code>${e(account.id)}</code> · ${flags}</p></div>
<div class="box"><h2>Pagos</h2>${payments.length ? `<div class="scroll"><table><thead><tr><th>Fecha</th><th>Importe</th><th>Estado</th><th>Tarjeta</th><th>Concepto</th><th>Reembolsado</th><th>Id</th></tr></thead><tbody>${paymentRows}</tbody></table></div>` : '<p class="muted">Todavía no hay pagos.</p>'}</div>
<div class="box"><h2>Reembolsos</h2>${refunds.length ? `<div class="scroll"><table><thead><tr><th>Fecha</th><th>Importe</th><th>Estado</th><th>Pago</th><th>Id</th></tr></thead><tbody>${refundRows}</tbody></table></div>` : '<p class="muted">Todavía no hay reembolsos.</p>'}</div>`,
    { wide: true },
  );
}
