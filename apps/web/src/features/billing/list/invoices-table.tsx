import { Link, useNavigate } from 'react-router';
import { CreditCard, Download, FileText, HandCoins, MoreHorizontal, Pencil, Trash2, Undo2 } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { formatCurrency, formatDate } from '@/lib/format';
import type { InvoiceSummary } from '../api/invoices-api';
import { InvoiceBadges } from '../components/invoice-badges';
import { issuerOf, showsIssuer } from '../utils/invoice-issuer';

export type RowActions = {
  canPay: (i: InvoiceSummary) => boolean;
  canDelete: (i: InvoiceSummary) => boolean;
  onPay: (i: InvoiceSummary) => void;
  onDelete: (i: InvoiceSummary) => void;
  onDownload: (i: InvoiceSummary) => void;
  /** Card payments: charge a pending invoice of a therapist with the saved card; refund one paid by card here. */
  canCharge: (i: InvoiceSummary) => boolean;
  canRefund: (i: InvoiceSummary) => boolean;
  onCharge: (i: InvoiceSummary) => void;
  onRefund: (i: InvoiceSummary) => void;
};

const pathOf = (i: InvoiceSummary) => `/billing/editor/${i.id}`;
const numberOf = (i: InvoiceSummary) => i.number ?? 'Borrador';
const buyerOf = (i: InvoiceSummary) => i.buyer?.fullName || i.patient?.name || '—';

function RowMenu({ invoice, actions }: { invoice: InvoiceSummary; actions: RowActions }) {
  const navigate = useNavigate();
  const issued = invoice.status === 'issued';
  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        className="grid size-8 place-items-center rounded-md text-muted-foreground hover:bg-muted hover:text-foreground"
        aria-label={`Acciones de la factura ${numberOf(invoice)} de ${buyerOf(invoice)}`}
      >
        <MoreHorizontal className="size-4" aria-hidden />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem onSelect={() => void navigate(pathOf(invoice))}>
          {issued ? <FileText aria-hidden /> : <Pencil aria-hidden />} {issued ? 'Ver factura' : 'Editar borrador'}
        </DropdownMenuItem>
        {issued ? (
          <DropdownMenuItem onSelect={() => actions.onDownload(invoice)}>
            <Download aria-hidden /> Descargar PDF
          </DropdownMenuItem>
        ) : null}
        {actions.canPay(invoice) ? (
          <DropdownMenuItem onSelect={() => actions.onPay(invoice)}>
            <HandCoins aria-hidden /> Registrar pago…
          </DropdownMenuItem>
        ) : null}
        {actions.canCharge(invoice) ? (
          <DropdownMenuItem onSelect={() => actions.onCharge(invoice)}>
            <CreditCard aria-hidden /> Cobrar con tarjeta…
          </DropdownMenuItem>
        ) : null}
        {actions.canRefund(invoice) ? (
          <DropdownMenuItem onSelect={() => actions.onRefund(invoice)}>
            <Undo2 aria-hidden /> Devolver…
          </DropdownMenuItem>
        ) : null}
        {actions.canDelete(invoice) ? (
          <DropdownMenuItem onSelect={() => actions.onDelete(invoice)} className="text-destructive">
            <Trash2 aria-hidden /> Eliminar borrador…
          </DropdownMenuItem>
        ) : null}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** A table on wide screens, cards on phones; each number is a link, so it all works from the keyboard. */
export function InvoicesTable({ items, actions, showTherapist }: { items: InvoiceSummary[]; actions: RowActions; showTherapist: boolean }) {
  const navigate = useNavigate();
  // Each issuer numbers its own series: with more than one in the list, two «2026-0001» are told apart by it.
  const showIssuer = showsIssuer(items);
  return (
    <>
      <div className="hidden overflow-x-auto rounded-xl border bg-card lg:block">
        <table className="w-full min-w-[52rem] table-fixed text-sm">
          <thead className="border-b bg-muted/50 text-[0.8125rem] text-muted-foreground">
            <tr>
              <th scope="col" className="w-32 px-3 py-2.5 text-left font-medium">
                Número
              </th>
              <th scope="col" className="w-28 px-3 py-2.5 text-left font-medium">
                Fecha
              </th>
              <th scope="col" className="px-3 py-2.5 text-left font-medium">
                Destinatario
              </th>
              {showIssuer ? (
                <th scope="col" className="w-[16%] px-3 py-2.5 text-left font-medium">
                  Emisor
                </th>
              ) : null}
              {showTherapist ? (
                <th scope="col" className="w-[16%] px-3 py-2.5 text-left font-medium">
                  Terapeuta
                </th>
              ) : null}
              <th scope="col" className="w-56 px-3 py-2.5 text-left font-medium">
                Estado
              </th>
              <th scope="col" className="w-28 px-3 py-2.5 text-right font-medium">
                Base
              </th>
              <th scope="col" className="w-28 px-3 py-2.5 text-right font-medium">
                Total
              </th>
              <th scope="col" className="w-12 px-3 py-2.5">
                <span className="sr-only">Acciones</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y">
            {items.map((i) => (
              <tr
                key={i.id}
                className="cursor-pointer transition-colors hover:bg-muted/40"
                onClick={(e) => {
                  if ((e.target as HTMLElement).closest('a,button,[role="menu"]')) return;
                  void navigate(pathOf(i));
                }}
              >
                <td className="truncate px-3 py-3">
                  <Link
                    to={pathOf(i)}
                    className={i.number ? 'font-medium tabular-nums hover:underline' : 'italic text-muted-foreground hover:underline'}
                  >
                    {numberOf(i)}
                  </Link>
                </td>
                <td className="whitespace-nowrap px-3 py-3 tabular-nums">
                  {formatDate(i.issueDate) || <span className="text-muted-foreground">—</span>}
                </td>
                <td className="truncate px-3 py-3" title={buyerOf(i)}>
                  {buyerOf(i)}
                </td>
                {showIssuer ? (
                  <td className="truncate px-3 py-3" title={issuerOf(i)}>
                    {issuerOf(i)}
                  </td>
                ) : null}
                {showTherapist ? <td className="truncate px-3 py-3">{i.therapist.name}</td> : null}
                <td className="px-3 py-3">
                  <InvoiceBadges invoice={i} />
                </td>
                <td className="whitespace-nowrap px-3 py-3 text-right tabular-nums text-muted-foreground">
                  {formatCurrency(i.subtotalCents)}
                </td>
                <td className="whitespace-nowrap px-3 py-3 text-right font-medium tabular-nums">{formatCurrency(i.totalCents)}</td>
                <td className="px-2 py-3 text-right">
                  <RowMenu invoice={i} actions={actions} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <ul className="grid gap-3 md:grid-cols-2 lg:hidden" aria-label="Facturas">
        {items.map((i) => (
          <li key={i.id}>
            <Card className="relative grid gap-2 p-4">
              <div className="flex items-start justify-between gap-3">
                <div className="grid min-w-0 gap-0.5">
                  <Link
                    to={pathOf(i)}
                    className={`truncate after:absolute after:inset-0 after:content-[''] ${i.number ? 'font-semibold tabular-nums' : 'italic text-muted-foreground'}`}
                  >
                    {numberOf(i)}
                  </Link>
                  <span className="truncate text-sm">{buyerOf(i)}</span>
                  {showIssuer ? <span className="truncate text-[0.8125rem] text-muted-foreground">Emite {issuerOf(i)}</span> : null}
                </div>
                <div className="relative z-10">
                  <RowMenu invoice={i} actions={actions} />
                </div>
              </div>
              <div className="flex flex-wrap items-end justify-between gap-2">
                <div className="grid gap-1.5">
                  <InvoiceBadges invoice={i} />
                  <span className="text-[0.8125rem] tabular-nums text-muted-foreground">
                    {i.issueDate ? formatDate(i.issueDate) : 'Sin emitir'}
                  </span>
                </div>
                <span className="font-display text-lg font-semibold tabular-nums">{formatCurrency(i.totalCents)}</span>
              </div>
            </Card>
          </li>
        ))}
      </ul>
    </>
  );
}

export function InvoicesTableSkeleton() {
  return (
    <div className="grid gap-2" aria-busy="true" aria-label="Cargando facturas">
      {Array.from({ length: 6 }, (_, n) => (
        <div key={n} className="h-12 animate-pulse rounded-md bg-muted" aria-hidden />
      ))}
    </div>
  );
}
