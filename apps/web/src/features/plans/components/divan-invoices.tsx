import { useState } from 'react';
import { Download, ReceiptText } from 'lucide-react';
import type { DivanInvoiceSummary } from '@divan/core';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { LoadError } from '@/components/ui/states';
import { messageOf } from '@/lib/error-message';
import { formatCurrency, isoDateToDmy } from '@/lib/format';
import { toast } from '@/lib/toast';
import { downloadDivanInvoicePdf, useDivanInvoices } from '../api/payments-api';
import { paymentsTexts } from '../utils/billing-details';

/** «29,00 € + 6,09 € de IVA (21 %)», or «Sin IVA» for an invoice under reverse charge or outside the IVA territory. */
export const taxBreakdownOf = (i: DivanInvoiceSummary) =>
  i.vatRate > 0 ? `${formatCurrency(i.subtotal)} + ${formatCurrency(i.vat)} de IVA (${i.vatRate}\u00a0%)` : 'Sin IVA';

/** «Facturas de Diván»: the invoices Diván issued to this workspace, newest first, each with its PDF. */
export function DivanInvoices({ wid }: { wid: string }) {
  const invoices = useDivanInvoices(wid);
  const [downloading, setDownloading] = useState<string | null>(null);

  const download = async (invoice: DivanInvoiceSummary) => {
    setDownloading(invoice.id);
    try {
      await downloadDivanInvoicePdf(wid, invoice);
    } catch (e) {
      toast.error(messageOf(e));
    } finally {
      setDownloading(null);
    }
  };

  if (invoices.isPending)
    return (
      <div className="grid min-h-24 place-items-center">
        <Spinner label="Cargando las facturas…" />
      </div>
    );
  if (invoices.isError) return <LoadError what="las facturas de Diván" error={invoices.error} onRetry={() => void invoices.refetch()} />;
  const items = invoices.data.items;
  if (items.length === 0)
    return (
      <p
        className="flex items-start gap-3 rounded-lg border border-dashed px-4 py-5 text-sm text-muted-foreground"
        data-testid="no-invoices"
      >
        <ReceiptText className="mt-0.5 size-4 shrink-0" aria-hidden />
        <span>{paymentsTexts.noInvoices}.</span>
      </p>
    );

  return (
    <ul className="divide-y rounded-lg border" aria-label="Facturas de Diván">
      {items.map((i) => (
        <li
          key={i.id}
          data-testid="divan-invoice"
          className="grid gap-3 px-4 py-3 sm:grid-cols-[minmax(0,1fr)_auto_auto] sm:items-center sm:gap-5"
        >
          <div className="grid min-w-0 gap-0.5">
            <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
              <span className="font-semibold tabular-nums">{i.number}</span>
              <span className="text-muted-foreground tabular-nums">{isoDateToDmy(i.issueDate)}</span>
            </p>
            <p className="text-[0.8125rem] text-muted-foreground">{i.description}</p>
          </div>
          <div className="grid gap-0.5 sm:text-right">
            <p className="text-sm font-semibold tabular-nums" data-testid="divan-invoice-total">
              {formatCurrency(i.total)}
            </p>
            <p className="text-xs text-muted-foreground tabular-nums">{taxBreakdownOf(i)}</p>
          </div>
          <Button
            type="button"
            variant="outline"
            size="sm"
            className="justify-self-start sm:justify-self-end"
            loading={downloading === i.id}
            aria-label={`Descargar el PDF de la factura ${i.number}`}
            onClick={() => void download(i)}
          >
            <Download aria-hidden /> PDF
          </Button>
        </li>
      ))}
    </ul>
  );
}
