import { useState } from 'react';
import { Link } from 'react-router';
import { Ban, Download, FileMinus, HandCoins } from 'lucide-react';
import { PAYMENT_TYPE, RECTIFICATION_METHOD, type Invoice } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { messageOf } from '@/lib/error-message';
import { formatCurrency, formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useRectifyInvoice, useRectifyingInvoices, useVoidInvoice } from '../api/invoices-api';
import { downloadInvoicePdf } from '../api/support-api';
import { PayDialog } from '../components/pay-dialog';
import { RectifyDialog } from '../components/rectify-dialog';
import { VoidDialog } from '../components/void-dialog';
import { VerifactuLine } from './verifactu-line';
import { TotalsSummary } from '../components/totals-summary';
import { InvoicePaymentPanel } from '../payments/components/invoice-payment-panel';

type Party = NonNullable<Invoice['buyer']>;

function PartyCard({ title, party }: { title: string; party: Party | null }) {
  const address = party
    ? [party.line1, party.line2, [party.zipCode, party.city].filter(Boolean).join(' '), party.country].filter(Boolean)
    : [];
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">{title}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-0.5 text-sm">
        {party ? (
          <>
            <span className="font-medium">{party.fullName}</span>
            {party.taxId ? <span className="tabular-nums">NIF: {party.taxId}</span> : null}
            {address.map((line) => (
              <span key={line} className="text-muted-foreground">
                {line}
              </span>
            ))}
          </>
        ) : (
          <span className="text-muted-foreground">—</span>
        )}
      </CardContent>
    </Card>
  );
}

type Props = { wid: string; invoice: Invoice; canUpdate: boolean };

/** An issued invoice: read-only, with its PDF, its payment and its corrections. */
export function IssuedInvoice({ wid, invoice, canUpdate }: Props) {
  const [paying, setPaying] = useState(false);
  const [rectifying, setRectifying] = useState(false);
  const [voiding, setVoiding] = useState(false);
  const voidIt = useVoidInvoice(wid);
  const [downloading, setDownloading] = useState(false);
  const rectify = useRectifyInvoice(wid);
  const corrections = useRectifyingInvoices(wid, invoice);
  // A voided invoice (wrongly issued, its VERI*FACTU cancellation recorded) is neither paid nor rectified.
  const ordinary = invoice.kind === 'ordinary' && invoice.status === 'issued';
  const canPay = canUpdate && ordinary && invoice.paymentStatus === 'pending';
  const canRectify = canUpdate && ordinary && corrections.isSuccess && corrections.data.length === 0;
  // Not while a rectifying invoice corrects it (the server refuses it too).
  const canVoid = canUpdate && invoice.status === 'issued' && corrections.isSuccess && corrections.data.length === 0;

  const download = async () => {
    setDownloading(true);
    try {
      await downloadInvoicePdf(wid, invoice);
    } catch (e) {
      toast.error(messageOf(e));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" loading={downloading} onClick={() => void download()}>
          <Download aria-hidden /> Descargar PDF
        </Button>
        {canPay ? (
          <Button variant="outline" onClick={() => setPaying(true)}>
            <HandCoins aria-hidden /> Registrar pago
          </Button>
        ) : null}
        {canRectify ? (
          <Button variant="outline" className="text-destructive" onClick={() => setRectifying(true)}>
            <FileMinus aria-hidden /> Rectificar
          </Button>
        ) : null}
        {canVoid ? (
          <Button variant="ghost" className="text-destructive" onClick={() => setVoiding(true)}>
            <Ban aria-hidden /> Anular
          </Button>
        ) : null}
      </div>

      {invoice.voided ? (
        <Alert variant="error" data-testid="voided">
          Anulada el {formatDate(invoice.voided.at)} (registro de anulación en VERI*FACTU). Motivo: {invoice.voided.reason}
        </Alert>
      ) : null}
      {invoice.rectifies ? (
        <Alert variant="info">
          Rectifica la factura <Link to={`/billing/editor/${invoice.rectifies.id}`}>{invoice.rectifies.number ?? 'original'}</Link> (
          {RECTIFICATION_METHOD.labels[invoice.rectifies.method].toLowerCase()}). Motivo: {invoice.rectifies.reason}
        </Alert>
      ) : null}
      {corrections.data?.length ? (
        <Alert variant="info" data-testid="rectified-by">
          Rectificada por{' '}
          {corrections.data.map((r, n) => (
            <span key={r.id}>
              {n > 0 ? ', ' : ''}
              <Link to={`/billing/editor/${r.id}`}>la factura {r.number}</Link> ({formatCurrency(r.totalCents)})
            </span>
          ))}
          .
        </Alert>
      ) : null}

      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        {[
          ['Fecha de emisión', formatDate(invoice.issueDate)],
          ['Paciente', invoice.patient?.name ?? '—'],
          ['Terapeuta', invoice.therapist.name],
          [
            'Pago',
            invoice.paymentStatus === 'paid'
              ? [PAYMENT_TYPE.labels[invoice.paymentType ?? 'other'], formatDate(invoice.paidAt)].filter(Boolean).join(' · ')
              : 'Pendiente',
          ],
        ].map(([label, value]) => (
          <div key={label} className="grid gap-0.5">
            <dt className="text-[0.8125rem] text-muted-foreground">{label}</dt>
            <dd className="font-medium" data-testid={`meta-${label}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>

      <InvoicePaymentPanel wid={wid} invoice={invoice} canUpdate={canUpdate} />

      <div className="grid gap-4 md:grid-cols-2">
        <PartyCard title="Emisor" party={invoice.seller} />
        <PartyCard title="Destinatario" party={invoice.buyer} />
      </div>

      <Card className="overflow-hidden">
        <div className="overflow-x-auto">
          <table className="w-full min-w-[36rem] text-sm">
            <thead className="border-b bg-muted/50 text-[0.8125rem] text-muted-foreground">
              <tr>
                <th scope="col" className="px-3 py-2.5 text-left font-medium">
                  Concepto
                </th>
                <th scope="col" className="w-20 px-3 py-2.5 text-right font-medium">
                  Cantidad
                </th>
                <th scope="col" className="w-28 px-3 py-2.5 text-right font-medium">
                  Precio
                </th>
                <th scope="col" className="w-20 px-3 py-2.5 text-right font-medium">
                  IVA
                </th>
                <th scope="col" className="w-20 px-3 py-2.5 text-right font-medium">
                  IRPF
                </th>
                <th scope="col" className="w-28 px-3 py-2.5 text-right font-medium">
                  Total
                </th>
              </tr>
            </thead>
            <tbody className="divide-y">
              {invoice.lines.map((l) => (
                <tr key={l.id}>
                  <td className="px-3 py-2.5">{l.description}</td>
                  <td className="px-3 py-2.5 text-right tabular-nums">{String(l.quantity).replace('.', ',')}</td>
                  <td className="whitespace-nowrap px-3 py-2.5 text-right tabular-nums">{formatCurrency(l.unitPriceCents)}</td>
                  <td className="px-3 py-2.5 text-right tabular-nums">{l.exemption ? 'Exenta' : `${l.vatRate} %`}</td>
                  <td className="px-3 py-2.5 text-right tabular-nums">{l.withholdingRate ? `${l.withholdingRate} %` : '—'}</td>
                  <td className="whitespace-nowrap px-3 py-2.5 text-right font-medium tabular-nums">{formatCurrency(l.totalCents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>

      <TotalsSummary totals={invoice} label="Totales de la factura" />
      {invoice.legends.map((l) => (
        <p key={l} className="text-[0.8125rem] text-muted-foreground">
          {l}
        </p>
      ))}
      {invoice.footer ? <p className="whitespace-pre-line text-sm">{invoice.footer}</p> : null}
      <VerifactuLine wid={wid} invoice={invoice} />

      <PayDialog wid={wid} invoice={paying ? invoice : null} onClose={() => setPaying(false)} />
      <VoidDialog
        number={invoice.number}
        open={voiding}
        onOpenChange={setVoiding}
        onVoid={async (reason) => {
          await voidIt.mutateAsync({ id: invoice.id, reason }).catch((e: unknown) => {
            throw new Error(messageOf(e));
          });
          toast.success(`Factura ${invoice.number ?? ''} anulada`);
        }}
      />
      <RectifyDialog
        invoice={invoice}
        open={rectifying}
        onOpenChange={setRectifying}
        onRectify={async (method, reason, lines) => {
          const r = await rectify.mutateAsync({ id: invoice.id, method, reason, lines });
          toast.success(`Factura rectificativa ${r.number ?? ''} emitida`);
        }}
      />
    </div>
  );
}
