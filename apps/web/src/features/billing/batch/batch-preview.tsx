import { Link } from 'react-router';
import { CircleCheck, FileStack, TriangleAlert } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/states';
import { formatCurrency } from '@/lib/format';
import type { BatchPreview } from '../api/batch-api';
import { invoicesLabel } from '../utils/batch-outcome';

type Item = BatchPreview['items'][number];
const sessionsLabel = (n: number) => (n === 1 ? '1 sesión' : `${n} sesiones`);

/** First: whose billing data stops their invoices, and where to complete it (a link when it is the reader's to complete). */
function IssuerBanners({ issuers }: { issuers: BatchPreview['issuersIncomplete'] }) {
  return issuers.map((i) => (
    <div
      key={`${i.kind}:${i.id}`}
      role="alert"
      className="flex items-start gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <TriangleAlert className="mt-0.5 size-5 shrink-0" aria-hidden />
      <div className="grid gap-1">
        <p className="font-medium">{i.message}</p>
        <p>Hasta entonces no se emite ninguna de sus facturas.</p>
        {i.settingsPath ? (
          <Link to={i.settingsPath} className="w-fit font-medium underline">
            Completar los datos de facturación
          </Link>
        ) : (
          <p>Solo {i.name} puede completarlos, desde sus ajustes.</p>
        )}
      </div>
    </div>
  ));
}

function Status({ item }: { item: Item }) {
  if (!item.problem)
    return (
      <span className="inline-flex items-center gap-1.5 text-success">
        <CircleCheck className="size-4" aria-hidden /> Se emitirá
      </span>
    );
  return (
    <span className="inline-flex items-start gap-1.5 text-amber-800 dark:text-amber-300">
      <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden /> {item.problem.message}
    </span>
  );
}

/** What «Emitir» would do, invoice by invoice: patient, therapist, issuer, amount, and whether issuing would refuse it and why. */
export function PreviewList({ preview, team, onIssue }: { preview: BatchPreview; team: boolean; onIssue: () => void }) {
  if (preview.items.length === 0) {
    return (
      <div className="rounded-xl border border-dashed bg-card">
        <EmptyState
          icon={<FileStack aria-hidden />}
          title="Nada que facturar"
          text="No hay sesiones realizadas sin facturar en ese periodo."
        />
      </div>
    );
  }
  const key = (i: Item) => `${i.patient.id}:${i.therapistId}`;
  return (
    <section aria-label="Previsualización del lote" className="grid gap-4">
      <IssuerBanners issuers={preview.issuersIncomplete} />
      <div className="flex flex-wrap items-center justify-between gap-3 rounded-xl border bg-accent/40 p-4">
        {preview.invoices > 0 ? (
          <p className="text-sm">
            <strong className="font-semibold">{invoicesLabel(preview.invoices)}</strong> con {sessionsLabel(preview.sessions)} ·{' '}
            <strong className="font-semibold tabular-nums">{formatCurrency(preview.totalCents)}</strong>
            {preview.refused ? ` · ${preview.refused === 1 ? '1 no se emitirá' : `${preview.refused} no se emitirán`}` : ''}
          </p>
        ) : (
          <p className="text-sm font-medium">
            {preview.refused === 1
              ? 'La factura de este periodo no se puede emitir todavía.'
              : `Ninguna de las ${preview.refused} facturas de este periodo se puede emitir todavía.`}
          </p>
        )}
        {preview.invoices > 0 ? (
          <Button onClick={onIssue}>
            <FileStack aria-hidden /> Emitir {invoicesLabel(preview.invoices)}
          </Button>
        ) : null}
      </div>
      <div className="hidden overflow-x-auto rounded-xl border bg-card md:block">
        <table className="w-full text-sm">
          <thead className="border-b bg-muted/50 text-[0.8125rem] text-muted-foreground">
            <tr>
              <th scope="col" className="px-4 py-2.5 text-left font-medium">
                Paciente
              </th>
              {team ? (
                <th scope="col" className="px-4 py-2.5 text-left font-medium">
                  Terapeuta
                </th>
              ) : null}
              <th scope="col" className="px-4 py-2.5 text-left font-medium">
                Emisor
              </th>
              <th scope="col" className="px-4 py-2.5 text-right font-medium">
                Sesiones
              </th>
              <th scope="col" className="px-4 py-2.5 text-right font-medium">
                Importe
              </th>
              <th scope="col" className="px-4 py-2.5 text-left font-medium">
                Estado
              </th>
            </tr>
          </thead>
          <tbody className="divide-y">
            {preview.items.map((i) => (
              <tr key={key(i)}>
                <td className="px-4 py-2.5">{i.patient.name}</td>
                {team ? <td className="px-4 py-2.5">{i.therapist.name}</td> : null}
                <td className="px-4 py-2.5">{i.issuer.name}</td>
                <td className="px-4 py-2.5 text-right tabular-nums">{i.sessions}</td>
                <td className="whitespace-nowrap px-4 py-2.5 text-right tabular-nums">{formatCurrency(i.totalCents)}</td>
                <td className="px-4 py-2.5">
                  <Status item={i} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="grid gap-3 md:hidden" aria-label="Facturas del lote">
        {preview.items.map((i) => (
          <li key={key(i)}>
            <Card className="grid gap-1.5 p-4 text-sm">
              <div className="flex items-start justify-between gap-3">
                <span className="font-semibold">{i.patient.name}</span>
                <span className="whitespace-nowrap font-medium tabular-nums">{formatCurrency(i.totalCents)}</span>
              </div>
              <span className="text-[0.8125rem] text-muted-foreground">
                {sessionsLabel(i.sessions)} · emite {i.issuer.name}
                {team ? ` · ${i.therapist.name}` : ''}
              </span>
              <Status item={i} />
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}
