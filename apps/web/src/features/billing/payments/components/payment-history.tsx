import { Link } from 'react-router';
import { PAYMENT_ATTEMPT_STATUS, REFUND_STATUS, type InvoicePayments } from '@divan/core';
import { cn } from '@/lib/cn';
import { formatCurrency, formatDate, formatTime } from '@/lib/format';

const when = (iso: string) => `${formatDate(iso)} ${formatTime(iso)}`;

/** An invoice's card charges and refunds, newest first, each with its state. */
export function PaymentHistory({ attempts, refunds }: Pick<InvoicePayments, 'attempts' | 'refunds'>) {
  return (
    <>
      {attempts.length ? (
        <section className="grid gap-2" aria-labelledby="attempts-title">
          <h3 id="attempts-title" className="text-sm font-medium">
            Cobros
          </h3>
          <ul className="grid gap-1.5 text-sm" data-testid="attempts">
            {attempts.map((a) => (
              <li key={a.id} className="grid gap-0.5 rounded-md border px-3 py-2">
                <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
                  <span>
                    <span className="text-muted-foreground">{when(a.createdAt)} · </span>
                    {a.kind === 'charge' ? 'Tarjeta guardada' : 'Enlace de pago'} ·{' '}
                    <span className="tabular-nums">{formatCurrency(a.amountCents)}</span>
                  </span>
                  <StatusPill tone={a.status === 'succeeded' ? 'ok' : a.status === 'failed' || a.status === 'canceled' ? 'bad' : 'wait'}>
                    {PAYMENT_ATTEMPT_STATUS.labels[a.status]}
                  </StatusPill>
                </div>
                {a.error ? <p className="text-[0.8125rem] text-muted-foreground">{a.error}</p> : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {refunds.length ? (
        <section className="grid gap-2" aria-labelledby="refunds-title">
          <h3 id="refunds-title" className="text-sm font-medium">
            Devoluciones
          </h3>
          <ul className="grid gap-1.5 text-sm" data-testid="refunds">
            {refunds.map((r) => (
              <li key={r.id} className="grid gap-0.5 rounded-md border px-3 py-2">
                <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
                  <span>
                    <span className="text-muted-foreground">{when(r.createdAt)} · </span>
                    <span className="tabular-nums">{formatCurrency(r.amountCents)}</span>
                    {r.rectifying ? (
                      <>
                        {' · '}
                        <Link
                          className="font-medium text-primary underline-offset-4 hover:underline"
                          to={`/billing/editor/${r.rectifying.id}`}
                        >
                          Rectificativa {r.rectifying.number ?? ''}
                        </Link>
                      </>
                    ) : null}
                  </span>
                  <StatusPill tone={r.status === 'succeeded' ? 'ok' : r.status === 'pending' ? 'wait' : 'bad'}>
                    {REFUND_STATUS.labels[r.status]}
                  </StatusPill>
                </div>
                <p className="text-[0.8125rem] text-muted-foreground">Motivo: {r.reason}</p>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

const pillTones = {
  ok: 'bg-success/10 text-[#1f5c39] ring-success/25 dark:text-success',
  wait: 'bg-warning-bg text-warning-fg ring-warning-fg/20',
  bad: 'bg-card text-destructive ring-destructive/30',
};

function StatusPill({ tone, children }: { tone: keyof typeof pillTones; children: string }) {
  return (
    <span
      className={cn(
        'inline-flex h-6 shrink-0 items-center whitespace-nowrap rounded-full px-2.5 text-xs font-medium ring-1 ring-inset',
        pillTones[tone],
      )}
    >
      {children}
    </span>
  );
}
