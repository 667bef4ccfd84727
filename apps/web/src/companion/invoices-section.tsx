import { useState } from 'react';
import { formatCents, type CompanionInvoice } from '@divan/core';
import { goTo, invoicesApi } from './billing-api';
import { formatDay, invoiceBadge, invoicesInOrder, RETURN_NOTICES, returnNoticeOf, type ReturnNotice } from './billing-format';
import { CardBlock } from './card-block';
import { asFailure, messageOf } from './errors';
import { saveBlob } from './save-blob';
import { StatusBadge } from './status-badge';
import { Alert, Button, EmptyState, ErrorState, h2Class, ListSkeleton } from './ui';
import { useLoad } from '../public-kit/use-load';
import { useRereadWhile } from './use-reread';

/** The notice a checkout came back with, read once: the address drops it so a reload does not repeat it. */
function useReturnNotice(): ReturnNotice | null {
  const [notice] = useState(() => {
    const found = returnNoticeOf(window.location.search);
    if (found) window.history.replaceState(window.history.state, '', window.location.pathname);
    return found;
  });
  return notice;
}

/** «Facturas» of a connected file: the saved card on top, then the invoices, those to pay first. */
export function InvoicesSection({ fileId }: { fileId: string }) {
  const notice = useReturnNotice();
  const invoices = useLoad(`invoices/${fileId}`, (signal) => invoicesApi.list(fileId, signal));
  const items = invoices.data ? invoicesInOrder(invoices.data) : null;
  // Back from paying: the webhook marks the invoice paid a moment later, so read again a few times.
  useRereadWhile(
    (rereads) => notice === 'pagado' && rereads < 5 && !!invoices.data?.some((i) => i.amountDueCents > 0),
    invoices.retry,
    invoices.data,
  );
  return (
    <div className="grid gap-6">
      {notice ? (
        <Alert tone="info" testId="return-notice">
          {RETURN_NOTICES[notice]}
        </Alert>
      ) : null}
      <CardBlock fileId={fileId} justSaved={notice === 'tarjeta'} />
      <section aria-labelledby="invoices-title" className="grid gap-3" data-testid="invoices">
        <h2 id="invoices-title" className={h2Class}>
          Facturas
        </h2>
        {invoices.failure ? (
          <ErrorState title="No se han podido cargar las facturas" message={messageOf(invoices.failure)} retry={invoices.retry} />
        ) : !items ? (
          <ListSkeleton rows={2} />
        ) : !items.length ? (
          <EmptyState title="No tienes facturas">Cuando tu terapeuta te emita una factura, podrás descargarla y pagarla aquí.</EmptyState>
        ) : (
          <ul className="grid gap-3">
            {items.map((i) => (
              <InvoiceRow key={i.id} fileId={fileId} invoice={i} onStale={invoices.retry} />
            ))}
          </ul>
        )}
        {notice === 'pagado' && items?.some((i) => i.amountDueCents > 0) ? (
          <div>
            <Button variant="ghost" onClick={invoices.retry}>
              Actualizar
            </Button>
          </div>
        ) : null}
      </section>
    </div>
  );
}

function InvoiceRow({ fileId, invoice: i, onStale }: { fileId: string; invoice: CompanionInvoice; onStale: () => void }) {
  const [busy, setBusy] = useState<'pay' | 'pdf' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const badge = invoiceBadge(i);
  const run = async (what: 'pay' | 'pdf') => {
    setBusy(what);
    setError(null);
    try {
      if (what === 'pay') {
        goTo(await invoicesApi.pay(fileId, i.id));
        return; // leaving for the checkout
      }
      saveBlob(await invoicesApi.pdf(fileId, i.id), `Factura ${i.number.replace(/[\\/]/g, '-')}.pdf`);
    } catch (e) {
      const failure = asFailure(e);
      setError(messageOf(failure));
      if (what === 'pay' && failure.status === 409) onStale();
    }
    setBusy(null);
  };
  return (
    <li data-testid="invoice-row" className="grid gap-3 rounded-xl border bg-card p-4 shadow-xs">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="break-words font-medium">Factura {i.number}</p>
          <p className="text-[0.8125rem] text-muted-foreground">
            {formatDay(i.issueDate)} · {i.sellerName}
          </p>
        </div>
        <StatusBadge label={badge.label} tone={badge.tone} testId="invoice-status" />
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-[0.9375rem]">
        <dt className="text-muted-foreground">Total</dt>
        <dd className="text-right font-medium tabular-nums">{formatCents(i.totalCents)}</dd>
        {i.amountDueCents > 0 ? (
          <>
            <dt className="text-muted-foreground">Por pagar</dt>
            <dd className="text-right font-semibold tabular-nums" data-testid="invoice-due">
              {formatCents(i.amountDueCents)}
            </dd>
          </>
        ) : null}
      </dl>
      {error ? <Alert>{error}</Alert> : null}
      <div className="flex flex-wrap gap-2">
        {i.payable ? (
          <Button
            loading={busy === 'pay'}
            disabled={busy !== null}
            onClick={() => void run('pay')}
            aria-label={`Pagar ${formatCents(i.amountDueCents)}, factura ${i.number}`}
          >
            Pagar {formatCents(i.amountDueCents)}
          </Button>
        ) : null}
        <Button
          variant="outline"
          loading={busy === 'pdf'}
          disabled={busy !== null}
          onClick={() => void run('pdf')}
          aria-label={`Descargar PDF, factura ${i.number}`}
        >
          Descargar PDF
        </Button>
      </div>
    </li>
  );
}
