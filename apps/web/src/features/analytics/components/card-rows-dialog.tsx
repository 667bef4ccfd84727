import { Link } from 'react-router';
import { ANALYTICS_ROWS_MAX, analyticsKeyLabel, type AnalyticsRow, type AnalyticsTab } from '@divan/core';
import { Modal } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { LoadError } from '@/components/ui/states';
import { formatDate, formatTime } from '@/lib/format';
import { useCardRows, type AnalyticsFilter } from '../api/analytics-api';
import { formatCount, formatMoney, longDay } from '../utils/figures';
import { HIDDEN_AMOUNT } from '../utils/hidden-amounts';

export type OpenCard = { card: string; title: string };

function RowLine({ row, hidden }: { row: AnalyticsRow; hidden: boolean }) {
  const money = (c: number) => (hidden ? HIDDEN_AMOUNT : formatMoney(c));
  switch (row.kind) {
    case 'session':
      return (
        <tr className="border-b last:border-0">
          <td className="py-2 pr-3 tabular-nums">
            {formatDate(row.startsAt)} {formatTime(row.startsAt)}
          </td>
          <td className="py-2 pr-3">
            <Link to={`/patients/${row.patient.id}/sessions`}>{row.patient.name}</Link>
            <span className="block text-xs text-muted-foreground">{row.therapistName}</span>
          </td>
          <td className="py-2 pr-3">
            {analyticsKeyLabel('sessionStatus', row.status)}
            {row.cancellationReason ? (
              <span className="block text-xs text-muted-foreground">{analyticsKeyLabel('cancellationReason', row.cancellationReason)}</span>
            ) : null}
          </td>
          <td className="hidden py-2 pr-3 sm:table-cell">
            {analyticsKeyLabel('modality', row.modality)} · {row.minutes} min
          </td>
          <td className="py-2 text-right tabular-nums">{money(row.priceCents)}</td>
        </tr>
      );
    case 'invoice':
      return (
        <tr className="border-b last:border-0">
          <td className="py-2 pr-3">
            <Link to={`/billing/editor/${row.id}`}>{row.number ?? 'Sin número'}</Link>
          </td>
          <td className="py-2 pr-3 tabular-nums">{row.issueDate ? longDay(row.issueDate) : ''}</td>
          <td className="py-2 pr-3">{row.buyerName}</td>
          <td className="hidden py-2 pr-3 sm:table-cell">
            {analyticsKeyLabel('paymentStatus', row.paymentStatus)}
            {row.paidAt ? ` · ${formatDate(row.paidAt)}` : ''}
          </td>
          <td className="py-2 text-right tabular-nums">{money(row.totalCents)}</td>
        </tr>
      );
    case 'patient':
      return (
        <tr className="border-b last:border-0">
          <td className="py-2 pr-3">
            <Link to={`/patients/${row.id}/overview`}>{row.name}</Link>
          </td>
          <td className="py-2 pr-3 tabular-nums">{row.day ? longDay(row.day) : ''}</td>
          <td className="py-2">{row.detail ?? ''}</td>
        </tr>
      );
  }
}

const HEADS: Record<AnalyticsRow['kind'], string[]> = {
  session: ['Fecha', 'Paciente', 'Estado', 'Modalidad', 'Importe'],
  invoice: ['Factura', 'Fecha', 'Destinatario', 'Cobro', 'Total'],
  patient: ['Paciente', 'Fecha', 'Detalle'],
};

/** The rows a card counts: as many as it says, adding up to its amount. */
export function CardRowsDialog({
  workspaceId,
  tab,
  open,
  filter,
  hidden,
  onClose,
}: {
  workspaceId: string;
  tab: AnalyticsTab;
  open: OpenCard | null;
  filter: AnalyticsFilter;
  hidden: boolean;
  onClose: () => void;
}) {
  const rows = useCardRows(workspaceId, tab, open?.card ?? null, filter);
  const kind = rows.data?.items[0]?.kind;
  const d = rows.data;
  return (
    <Modal
      open={open !== null}
      onOpenChange={(o) => !o && onClose()}
      title={open?.title ?? ''}
      description={`Del ${longDay(filter.from)} al ${longDay(filter.to)}`}
      size="lg"
    >
      {rows.isPending ? (
        <Spinner />
      ) : rows.isError ? (
        <LoadError error={rows.error} onRetry={() => void rows.refetch()} what="el detalle" />
      ) : d && d.total === 0 ? (
        <p className="py-6 text-center text-sm text-muted-foreground">Nada que contar en este periodo.</p>
      ) : d && kind ? (
        <div className="grid gap-3">
          <p className="text-sm" role="status">
            <strong>{formatCount(d.total)}</strong> {d.total === 1 ? 'registro' : 'registros'}
            {d.sumCents !== null ? (
              <>
                {' '}
                · suman <strong className="tabular-nums">{hidden ? HIDDEN_AMOUNT : formatMoney(d.sumCents)}</strong>
              </>
            ) : null}
            {d.total > d.items.length ? ` · se muestran los ${formatCount(ANALYTICS_ROWS_MAX)} primeros` : ''}
          </p>
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <thead>
                <tr className="border-b text-left text-xs text-muted-foreground">
                  {HEADS[kind].map((h, i) => (
                    <th
                      key={h}
                      scope="col"
                      className={`py-2 pr-3 font-medium ${i === HEADS[kind].length - 1 && kind !== 'patient' ? 'text-right' : ''} ${i === 3 && kind !== 'patient' ? 'hidden sm:table-cell' : ''}`}
                    >
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {d.items.map((row) => (
                  <RowLine key={row.id} row={row} hidden={hidden} />
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ) : null}
    </Modal>
  );
}
