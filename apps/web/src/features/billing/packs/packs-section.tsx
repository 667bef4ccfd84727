import { useState } from 'react';
import { Link } from 'react-router';
import { Package, Plus } from 'lucide-react';
import { PACK_STATUS, PAYMENT_STATUS, type Pack } from '@divan/core';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/input';
import { ProgressBar } from '@/components/ui/progress-bar';
import { LoadError } from '@/components/ui/states';
import { formatCurrency, isoDateToDmy } from '@/lib/format';
import { toast } from '@/lib/toast';
import { usePacks, useRefundPack, useSellPack } from './packs-api';
import { SellPackDialog } from './sell-pack-dialog';

type Props = { wid: string; patientId: string; editable: boolean; sessionPriceCents: number | null };

const variantOf = (s: Pack['status']) => (s === 'active' ? 'accent' : s === 'refunded' || s === 'expired' ? 'outline' : 'neutral');

/** The patient's session packs (bonos): what is left of each, selling one, refunding the unused part. */
export function PacksSection({ wid, patientId, editable, sessionPriceCents }: Props) {
  const packs = usePacks(wid, patientId);
  const sell = useSellPack(wid, patientId);
  const refund = useRefundPack(wid, patientId);
  const [selling, setSelling] = useState(false);
  const [refunding, setRefunding] = useState<Pack | null>(null);
  const [reason, setReason] = useState('');
  const items = packs.data?.items ?? [];

  return (
    <Card data-testid="packs">
      <CardHeader className="grid-cols-[minmax(0,1fr)_auto] items-start gap-3">
        <div className="grid gap-1">
          <CardTitle className="flex items-center gap-2 text-lg">
            <Package className="size-5 text-primary" aria-hidden /> Bonos de sesiones
          </CardTitle>
          <CardDescription>Sesiones pagadas por adelantado: cada sesión realizada descuenta una.</CardDescription>
        </div>
        {editable ? (
          <Button size="sm" variant="outline" onClick={() => setSelling(true)}>
            <Plus aria-hidden /> Vender bono
          </Button>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-3">
        {packs.isError ? <LoadError error={packs.error} what="los bonos" onRetry={() => void packs.refetch()} /> : null}
        {packs.isPending ? <p className="text-sm text-muted-foreground">Cargando bonos…</p> : null}
        {packs.data && !items.length ? <p className="text-sm text-muted-foreground">No tiene bonos.</p> : null}
        <ul className="grid gap-3">
          {items.map((p) => (
            <li key={p.id} className="grid gap-2 rounded-lg border p-3">
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-medium">{p.name}</span>
                <Badge variant={variantOf(p.status)}>{PACK_STATUS.labels[p.status]}</Badge>
                <span className="ml-auto text-sm tabular-nums">{formatCurrency(p.priceCents)}</span>
              </div>
              <ProgressBar
                value={p.sessionsTotal ? (p.sessionsUsed / p.sessionsTotal) * 100 : 0}
                label={`${p.sessionsUsed} de ${p.sessionsTotal} sesiones usadas`}
              />
              <p className="text-sm text-muted-foreground">
                {p.sessionsUsed} de {p.sessionsTotal} usadas · quedan {p.sessionsLeft}
                {p.refundedSessions ? ` · ${p.refundedSessions} devueltas` : ''} · {p.therapist.name}
                {p.expiresOn ? ` · caduca el ${isoDateToDmy(p.expiresOn)}` : ''}
              </p>
              <div className="flex flex-wrap items-center gap-3 text-sm">
                {p.invoice ? (
                  <Link className="text-primary underline-offset-4 hover:underline" to={`/billing/editor/${p.invoice.id}`}>
                    Factura {p.invoice.number} ·{' '}
                    {PAYMENT_STATUS.labels[p.invoice.paymentStatus as keyof typeof PAYMENT_STATUS.labels] ?? p.invoice.paymentStatus}
                  </Link>
                ) : null}
                {p.refundInvoice ? (
                  <Link className="text-primary underline-offset-4 hover:underline" to={`/billing/editor/${p.refundInvoice.id}`}>
                    Rectificativa {p.refundInvoice.number}
                  </Link>
                ) : null}
                {editable && (p.status === 'active' || p.status === 'expired') && p.sessionsLeft > 0 ? (
                  <Button size="sm" variant="ghost" className="ml-auto" onClick={() => setRefunding(p)}>
                    Devolver lo no usado
                  </Button>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      </CardContent>
      <SellPackDialog
        open={selling}
        onOpenChange={setSelling}
        defaultPriceCents={sessionPriceCents}
        onSell={async (body) => {
          const p = await sell.mutateAsync(body);
          toast.success(`Bono vendido: factura ${p.invoice?.number ?? ''} emitida.`);
        }}
      />
      <ConfirmDialog
        open={!!refunding}
        onOpenChange={(o) => {
          if (!o) {
            setRefunding(null);
            setReason('');
          }
        }}
        title={`¿Devolver las ${refunding?.sessionsLeft ?? 0} sesiones sin usar?`}
        description="Se emite una factura rectificativa por su parte del precio y, si el bono se pagó con tarjeta en Diván, se devuelve el importe a la tarjeta. El bono deja de poder usarse."
        confirmLabel="Devolver"
        canConfirm={reason.trim() !== ''}
        onConfirm={async () => {
          const p = await refund.mutateAsync({ packId: refunding!.id, reason: reason.trim() });
          toast.success(`Devolución hecha: rectificativa ${p.refundInvoice?.number ?? ''}.`);
        }}
      >
        <Field label="Motivo">
          <Textarea value={reason} onChange={(e) => setReason(e.target.value)} rows={2} maxLength={300} />
        </Field>
      </ConfirmDialog>
    </Card>
  );
}
