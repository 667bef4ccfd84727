import { useState } from 'react';
import { ReceiptEuro, Search, Undo2 } from 'lucide-react';
import type { LearningAdminPurchase } from '@divan/core';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Input } from '@/components/ui/input';
import { PageSpinner } from '@/components/ui/spinner';
import { EmptyState, LoadError } from '@/components/ui/states';
import { formatCurrency, formatDate, formatTime } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useAdminPurchases, useRefundPurchase } from './admin-api';

export const refundTexts = {
  refunded: 'Reembolsada',
  paid: 'Pagada',
  empty: 'Todavía no hay compras',
  noMatch: 'Ninguna compra con ese correo',
  done: 'Compra reembolsada: se ha devuelto el pago y emitido la factura rectificativa',
};

/** «07/12/2026 18:05»: the purchase's date and time, in the browser's time zone. */
export const purchaseWhen = (iso: string) => `${formatDate(iso)} ${formatTime(iso)}`;

/**
 * The staff's refunds screen (issue 29): the latest 100 purchases, or a buyer's by email; «Reembolsar»
 * (asked first) returns the payment in full, ends the access and rectifies Diván's invoice.
 */
export function PurchaseRefunds({ token }: { token: string }) {
  const [typed, setTyped] = useState('');
  const [email, setEmail] = useState('');
  const list = useAdminPurchases(token, email);
  const refund = useRefundPurchase(token);
  const [asking, setAsking] = useState<LearningAdminPurchase | null>(null);
  const items = list.data?.items;

  return (
    <section className="grid gap-4" aria-label="Reembolsos">
      <div className="grid gap-1">
        <h2 className="text-lg font-semibold">Compras y reembolsos</h2>
        <p className="text-sm text-muted-foreground">Las 100 compras más recientes, o las de un comprador por su correo.</p>
      </div>
      <form
        role="search"
        className="flex flex-col gap-2 sm:flex-row"
        onSubmit={(e) => {
          e.preventDefault();
          setEmail(typed.trim());
        }}
      >
        <Input
          type="search"
          className="sm:max-w-sm"
          aria-label="Correo del comprador"
          placeholder="Correo del comprador"
          autoComplete="off"
          maxLength={254}
          value={typed}
          onChange={(e) => {
            setTyped(e.target.value);
            // The box emptied (its ✕ included): the latest purchases again.
            if (!e.target.value.trim()) setEmail('');
          }}
        />
        <Button type="submit" variant="outline">
          <Search aria-hidden /> Buscar
        </Button>
      </form>

      {list.isError ? (
        <LoadError what="las compras" error={list.error} onRetry={() => void list.refetch()} />
      ) : !items ? (
        <PageSpinner />
      ) : !items.length ? (
        <div className="rounded-xl border bg-card">
          <EmptyState
            icon={<ReceiptEuro aria-hidden />}
            title={email ? refundTexts.noMatch : refundTexts.empty}
            text={
              email ? `No hay compras de un comprador cuyo correo contenga «${email}».` : 'Aquí aparecerán las compras de la biblioteca.'
            }
          />
        </div>
      ) : (
        <ul className="grid divide-y rounded-xl border bg-card" aria-label="Compras">
          {items.map((p) => (
            <li key={p.id} className="grid gap-2 p-4 sm:grid-cols-[9rem_minmax(0,1fr)_auto] sm:items-center sm:gap-4">
              <p className="text-[0.8125rem] tabular-nums text-muted-foreground">{purchaseWhen(p.purchasedAt)}</p>
              <div className="grid min-w-0 gap-0.5">
                <p className="break-words font-medium">{p.title}</p>
                <p className="break-words text-[0.8125rem] text-muted-foreground">
                  {p.buyer.name ? `${p.buyer.name} · ` : ''}
                  <span className="break-all">{p.buyer.email}</span>
                </p>
              </div>
              <div className="flex flex-wrap items-center gap-3 sm:justify-end">
                <span className="font-medium tabular-nums">{formatCurrency(p.totalCents)}</span>
                {p.status === 'refunded' ? (
                  <Badge variant="outline">{refundTexts.refunded}</Badge>
                ) : (
                  <>
                    <Badge variant="accent">{refundTexts.paid}</Badge>
                    <Button variant="outline" size="sm" className="min-h-10" onClick={() => setAsking(p)}>
                      <Undo2 aria-hidden /> Reembolsar
                    </Button>
                  </>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}

      <ConfirmDialog
        open={!!asking}
        onOpenChange={(open) => !open && setAsking(null)}
        title="¿Reembolsar esta compra?"
        description={
          asking ? (
            <>
              Se devolverán {formatCurrency(asking.totalCents)} a {asking.buyer.name || asking.buyer.email}, perderá el acceso a «
              {asking.title}» y se emitirá una factura rectificativa por el importe completo. No se puede deshacer.
            </>
          ) : null
        }
        confirmLabel="Reembolsar"
        onConfirm={() => refund.mutateAsync(asking!.id).then(() => toast.success(refundTexts.done))}
      />
    </section>
  );
}
