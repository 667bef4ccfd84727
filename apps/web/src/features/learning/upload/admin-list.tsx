import { useState } from 'react';
import { Pencil, Send, Undo2 } from 'lucide-react';
import type { LearningAdminVideo, LearningVideoState } from '@divan/core';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Spinner } from '@/components/ui/spinner';
import { messageOf } from '@/lib/error-message';
import { formatCurrency, plural } from '@/lib/format';
import { toast } from '@/lib/toast';
import { CardArt } from '../components/video-card';
import { usePublish } from './admin-api';

export const statusLabels: Record<LearningVideoState, string> = {
  draft: 'Borrador',
  processing: 'Procesando…',
  failed: 'Error al procesar',
  published: 'Publicado',
  unpublished: 'Retirado',
};
const statusVariant = {
  draft: 'neutral',
  processing: 'warning',
  failed: 'destructive',
  published: 'accent',
  unpublished: 'outline',
} as const;

/** Every video of the library with its state; publish, withdraw (asked first) or edit. */
export function AdminList({
  token,
  items,
  onEdit,
}: {
  token: string;
  items: LearningAdminVideo[];
  onEdit: (v: LearningAdminVideo) => void;
}) {
  const publish = usePublish(token);
  const [withdrawing, setWithdrawing] = useState<LearningAdminVideo | null>(null);
  const run = (v: LearningAdminVideo, on: boolean) =>
    publish
      .mutateAsync({ id: v.id, on })
      // The row already says which one: the toast does not repeat the title.
      .then(() => toast.success(on ? 'Vídeo publicado: ya está en la biblioteca' : 'Vídeo retirado de la biblioteca'));

  return (
    <>
      <ul className="grid divide-y rounded-xl border bg-card" aria-label="Vídeos de la biblioteca">
        {items.map((v) => {
          const ready = v.hasFile || !!v.vimeoUrl;
          return (
            <li key={v.id} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center">
              <CardArt card={v} className="aspect-video w-full shrink-0 overflow-hidden rounded-md sm:w-32" />
              <div className="grid min-w-0 flex-1 gap-1">
                <p className="flex flex-wrap items-center gap-2">
                  <span className="font-medium">{v.title}</span>
                  <Badge variant={statusVariant[v.status]}>
                    {v.status === 'processing' ? <Spinner className="[&_svg]:size-3" label="Procesando" /> : null}
                    {statusLabels[v.status]}
                  </Badge>
                </p>
                <p className="text-[0.8125rem] tabular-nums text-muted-foreground">
                  {formatCurrency(v.priceCents)} sin IVA · {formatCurrency(v.priceWithVatCents)} con IVA ·{' '}
                  {plural(v.purchases, 'compra', 'compras')}
                  {ready ? '' : ' · sin archivo ni Vimeo'}
                </p>
                {v.status === 'failed' && v.failure ? (
                  <p className="text-[0.8125rem] text-destructive" role="alert">
                    {v.failure}
                  </p>
                ) : null}
              </div>
              <div className="flex flex-wrap gap-2">
                <Button variant="outline" size="sm" onClick={() => onEdit(v)} aria-label={`Editar «${v.title}»`}>
                  <Pencil aria-hidden /> Editar
                </Button>
                {v.status === 'published' ? (
                  <Button variant="outline" size="sm" onClick={() => setWithdrawing(v)}>
                    <Undo2 aria-hidden /> Retirar
                  </Button>
                ) : v.status === 'draft' || v.status === 'unpublished' ? (
                  <Button
                    size="sm"
                    disabled={!ready || publish.isPending}
                    title={ready ? undefined : 'Sube el archivo o pon la URL de Vimeo antes de publicar'}
                    onClick={() => run(v, true).catch((e: unknown) => toast.error(messageOf(e)))}
                  >
                    <Send aria-hidden /> Publicar
                  </Button>
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        open={!!withdrawing}
        onOpenChange={(open) => !open && setWithdrawing(null)}
        title="¿Retirar el vídeo de la biblioteca?"
        description={
          withdrawing
            ? `«${withdrawing.title}» dejará de verse en la biblioteca y nadie más podrá comprarlo. Quien ya lo compró${withdrawing.purchases ? ` (${plural(withdrawing.purchases, 'compra', 'compras')})` : ''} lo sigue viendo: el acceso es sin límite.`
            : ''
        }
        confirmLabel="Retirar"
        onConfirm={() => (withdrawing ? run(withdrawing, false) : Promise.resolve())}
      />
    </>
  );
}
