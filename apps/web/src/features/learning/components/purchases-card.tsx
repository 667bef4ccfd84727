import { useId } from 'react';
import { Link } from 'react-router';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { ListStates } from '@/components/ui/list-states';
import { formatCurrency, formatDate } from '@/lib/format';
import { usePurchases } from '../api/learning-api';

/** «Tus compras»: what was bought, when, for how much (IVA included) and Diván's invoice number. */
export function PurchasesCard() {
  const purchases = usePurchases();
  const id = useId();
  const items = purchases.data?.items ?? [];
  return (
    <Card role="region" aria-labelledby={id}>
      <CardHeader>
        <CardTitle id={id}>Tus compras</CardTitle>
      </CardHeader>
      <CardContent>
        <ListStates
          query={purchases}
          failed="No se pudieron cargar tus compras."
          loading="Cargando compras…"
          empty={items.length ? null : 'Todavía no has comprado ningún vídeo.'}
        >
          <ul className="-my-2 divide-y">
            {items.map((p) => (
              <li key={p.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-0.5 py-2.5 text-sm">
                <Link to={`/learn/video/${p.videoId}`} className="min-w-0 font-medium hover:underline">
                  {p.title}
                </Link>
                <span className="flex flex-wrap gap-x-3 tabular-nums text-muted-foreground">
                  <span>{formatDate(p.purchasedAt)}</span>
                  <span>{formatCurrency(p.totalCents)}</span>
                  {p.invoiceNumber ? <span>Factura {p.invoiceNumber}</span> : null}
                  {p.refundedAt ? <span className="text-destructive">Devuelta el {formatDate(p.refundedAt)}</span> : null}
                </span>
              </li>
            ))}
          </ul>
        </ListStates>
      </CardContent>
    </Card>
  );
}
