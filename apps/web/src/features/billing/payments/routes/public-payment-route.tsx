import { useEffect, useState, type ReactNode } from 'react';
import { useParams, useSearchParams } from 'react-router';
// Only icons the entry already lists (each new chunk name costs the sign-in page bytes): the check is drawn here.
import { CircleAlert, ShieldCheck } from 'lucide-react';
import type { z } from 'zod';
import type { publicPaymentLinkResponse } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Logo } from '@/components/ui/logo';
import { Spinner } from '@/components/ui/spinner';
import { formatCurrency, formatDate } from '@/lib/format';
import { http, isApiError } from '@/lib/http';
import { usePageTitle } from '@/lib/use-page-title';

type LinkInfo = z.infer<typeof publicPaymentLinkResponse>;
type Failure = { code: string; message: string };

const path = (token: string) => `/public/payment-links/${encodeURIComponent(token)}`;
const failureOf = (e: unknown): Failure =>
  isApiError(e) ? { code: e.code, message: e.message } : { code: 'unexpected_error', message: 'Error inesperado.' };

/** The patient's words for what the server says to the therapist. */
const forPatient: Record<string, string> = {
  charge_not_connected: 'Ahora mismo no se pueden hacer pagos con tarjeta a tu terapeuta. Avísale para que lo revise.',
  charge_amount_too_low:
    'Esta factura no se puede pagar con tarjeta: el importe es demasiado pequeño. Consulta con tu terapeuta cómo pagarla.',
  charge_not_chargeable: 'Esta factura ya no está pendiente de pago. No tienes que hacer nada más.',
  payment_link_invalid: 'Los enlaces de pago caducan pasado un tiempo. Pide uno nuevo a tu terapeuta.',
};

const titles: Record<string, string> = {
  payment_link_invalid: 'Este enlace no es válido o ha caducado',
  payment_link_used: 'Esta factura ya está pagada',
  network_error: 'Sin conexión',
  too_many_requests: 'Demasiados intentos',
};

/**
 * `/pago/:token`: the page of a mailed link, no account. A card link shows who asks and the mandate;
 * an invoice link, the invoice. «Guardar tarjeta» or «Pagar» opens a fresh Stripe Checkout, which
 * comes back here with `?estado=tarjeta` or `?estado=pagado`. Phone first: most open it from the mail.
 */
export function PublicPaymentRoute() {
  usePageTitle('Pago');
  const { token = '' } = useParams();
  const [params] = useSearchParams();
  const done = params.get('estado');
  const [info, setInfo] = useState<LinkInfo | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    setFailure(null);
    http<LinkInfo>(path(token)).then(
      (r) => live && setInfo(r),
      (e: unknown) => live && setFailure(failureOf(e)),
    );
    return () => {
      live = false;
    };
  }, [token, attempt]);

  const testMode = info?.mode === 'test';
  let body: ReactNode;
  // Back from Stripe: say it worked, whatever the link says now (a paid invoice, a link since expired).
  if (done === 'tarjeta') {
    body = (
      <Outcome
        title="Tarjeta guardada. Ya puedes cerrar esta página."
        text={
          info
            ? `${info.sellerName} podrá cobrarte en ella las facturas de tus sesiones. Cada cobro te llegará por email con su factura.`
            : null
        }
      />
    );
  } else if (done === 'pagado') {
    body = <Outcome title="Pago recibido: tu terapeuta lo verá en cuanto el banco lo confirme." text="Ya puedes cerrar esta página." />;
  } else if (failure) {
    body = (
      <Problem title={titles[failure.code] ?? 'No se puede abrir este enlace'} text={forPatient[failure.code] ?? failure.message}>
        {['network_error', 'too_many_requests', 'unexpected_error', 'service_unavailable'].includes(failure.code) ? (
          <Button onClick={() => setAttempt((n) => n + 1)}>Reintentar</Button>
        ) : null}
      </Problem>
    );
  } else if (!info) {
    body = <Spinner label="Cargando" className="py-10" />;
  } else if (info.kind === 'card') {
    body = <CardLink token={token} info={info} />;
  } else {
    body = <InvoiceLink token={token} info={info} />;
  }

  return (
    <div className="min-h-dvh bg-background">
      {testMode ? (
        <p role="note" className="bg-warning-bg px-4 py-2 text-center text-[0.8125rem] font-medium text-warning-fg" data-testid="test-mode">
          Modo de prueba: no se cobra dinero real.
        </p>
      ) : null}
      <main className="mx-auto grid w-full max-w-md gap-6 px-5 py-8 sm:py-14">
        <Logo />
        {body}
        <p className="flex items-start gap-2 text-[0.8125rem] text-muted-foreground">
          <ShieldCheck className="mt-0.5 size-3.5 shrink-0" aria-hidden />
          Los datos de tu tarjeta los recoge y guarda Stripe, con cifrado: ni Diván ni tu terapeuta los ven.
        </p>
      </main>
    </div>
  );
}

/** «Continuar»: a fresh Checkout Session, then Stripe's page replaces this one. */
function useCheckout(token: string) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const go = async () => {
    setPending(true);
    setError(null);
    try {
      const { url } = await http<{ url: string }>(`${path(token)}/checkout`, { method: 'POST' });
      window.location.href = url;
    } catch (e) {
      const f = failureOf(e);
      setError(forPatient[f.code] ?? f.message);
      setPending(false);
    }
  };
  return { pending, error, go: () => void go() };
}

const h1 = 'font-display text-[1.75rem] font-semibold leading-tight tracking-tight';

function CardLink({ token, info }: { token: string; info: LinkInfo }) {
  const checkout = useCheckout(token);
  return (
    <div className="grid gap-5">
      <div className="grid gap-2">
        <h1 className={h1}>Guarda tu tarjeta</h1>
        <p className="text-[0.9375rem] leading-relaxed text-muted-foreground">
          <strong className="font-semibold text-foreground">{info.sellerName}</strong> te pide una tarjeta para cobrarte las facturas de tus
          sesiones.
        </p>
      </div>
      <section aria-labelledby="mandate-title" className="grid gap-2 rounded-xl border bg-card p-4 text-sm leading-relaxed shadow-xs">
        <h2 id="mandate-title" className="font-semibold">
          Autorización de cobro
        </h2>
        <p data-testid="mandate">{info.mandate}</p>
      </section>
      {checkout.error ? <Alert variant="error">{checkout.error}</Alert> : null}
      <div className="grid gap-2">
        <Button size="lg" className="w-full" loading={checkout.pending} onClick={checkout.go}>
          Guardar tarjeta
        </Button>
        <p className="text-center text-[0.8125rem] text-muted-foreground">
          Al continuar aceptas la autorización. Enlace válido hasta el {formatDate(info.expiresAt)}.
        </p>
      </div>
    </div>
  );
}

function InvoiceLink({ token, info }: { token: string; info: LinkInfo }) {
  const checkout = useCheckout(token);
  const invoice = info.invoice!;
  const total = formatCurrency(invoice.totalCents);
  return (
    <div className="grid gap-5">
      <div className="grid gap-2">
        <h1 className={h1}>{invoice.paid ? 'Esta factura ya está pagada' : `Factura de ${info.sellerName}`}</h1>
        <p className="text-[0.9375rem] leading-relaxed text-muted-foreground">
          {invoice.paid ? 'No tienes que hacer nada más. Gracias.' : 'Puedes pagarla con tarjeta, de forma segura, en la página de Stripe.'}
        </p>
      </div>
      <dl className="grid gap-3 rounded-xl border bg-card p-4 text-sm shadow-xs" data-testid="invoice">
        <Row label="Factura" value={invoice.number} />
        <Row label="Fecha" value={formatDate(invoice.issueDate)} />
        <Row label="Emitida por" value={info.sellerName} />
        <div className="flex items-baseline justify-between gap-3 border-t pt-3">
          <dt className="font-medium">Total</dt>
          <dd className="font-display text-2xl font-semibold tabular-nums">{total}</dd>
        </div>
      </dl>
      {checkout.error ? <Alert variant="error">{checkout.error}</Alert> : null}
      {!invoice.paid ? (
        <div className="grid gap-2">
          <Button size="lg" className="w-full" loading={checkout.pending} onClick={checkout.go}>
            Pagar {total}
          </Button>
          <p className="text-center text-[0.8125rem] text-muted-foreground">Enlace válido hasta el {formatDate(info.expiresAt)}.</p>
        </div>
      ) : null}
    </div>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex items-baseline justify-between gap-3">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="text-right font-medium">{value || '—'}</dd>
    </div>
  );
}

function Outcome({ title, text }: { title: string; text: string | null }) {
  return (
    <div className="grid gap-4" role="status">
      <span className="grid size-14 place-items-center rounded-full bg-success/10 text-success">
        <svg
          viewBox="0 0 24 24"
          className="size-7"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
          aria-hidden
        >
          <circle cx="12" cy="12" r="10" />
          <path d="m9 12 2 2 4-4" />
        </svg>
      </span>
      <h1 className={h1}>{title}</h1>
      {text ? <p className="text-[0.9375rem] leading-relaxed text-muted-foreground">{text}</p> : null}
    </div>
  );
}

function Problem({ title, text, children }: { title: string; text: string; children?: ReactNode }) {
  return (
    <div className="grid gap-4">
      <span className="grid size-14 place-items-center rounded-full bg-destructive/10 text-destructive">
        <CircleAlert className="size-7" aria-hidden />
      </span>
      <h1 className={h1}>{title}</h1>
      <p className="text-[0.9375rem] leading-relaxed text-muted-foreground">{text}</p>
      {children ? <div className="flex flex-wrap gap-3">{children}</div> : null}
    </div>
  );
}

export { PublicPaymentRoute as Component };
