import { useState } from 'react';
import { Search } from 'lucide-react';
import { invoiceBatchBody, type InvoiceBatchBody } from '@divan/core';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/native-select';
import { messageOf } from '@/lib/error-message';
import { useCreateBatch, usePreviewBatch, type BatchPreview } from '../api/batch-api';
import { useTherapists } from '../api/support-api';
import { useBillingScope } from '../components/use-billing-scope';
import { ServerError } from '../editor/server-error';
import { invoicesLabel } from '../utils/batch-outcome';
import { PreviewList } from './batch-preview';
import { PeriodFields, rangeErrors, usePeriod, type RangeErrors } from '../components/period-fields';

export function BatchForm({ wid, onStarted }: { wid: string; onStarted: (batchId: string) => void }) {
  const { ability } = useBillingScope();
  const therapists = useTherapists(wid, ability.can('read', 'members'));
  const team = (therapists.data?.length ?? 0) > 1;
  const [therapistId, setTherapistId] = useState('');
  const [errors, setErrors] = useState<RangeErrors>({});
  const [preview, setPreview] = useState<{ body: InvoiceBatchBody; data: BatchPreview } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const previewing = usePreviewBatch(wid);
  const create = useCreateBatch(wid);
  const period = usePeriod(() => {
    setPreview(null);
    setErrors({});
  });
  const body: InvoiceBatchBody = { ...period.range, ...(therapistId ? { therapistId } : {}) };

  const onPreview = async (e: React.FormEvent) => {
    e.preventDefault();
    const found = rangeErrors(invoiceBatchBody, body);
    setErrors(found);
    if (found.from || found.to) return;
    const data = await previewing.mutateAsync(body).catch(() => null);
    if (data) setPreview({ body, data });
  };

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Periodo</CardTitle>
          <CardDescription>Sesiones realizadas en esas fechas, como mucho tres meses y no más antiguas de 400 días.</CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={(e) => void onPreview(e)} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4 lg:items-end" noValidate>
            <PeriodFields state={period} errors={errors} />
            {team ? (
              <Field label="Terapeuta">
                <NativeSelect
                  value={therapistId}
                  onChange={(e) => (setTherapistId(e.target.value), setPreview(null))}
                  placeholder="Todos"
                  options={(therapists.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
                />
              </Field>
            ) : null}
            <Button
              type="submit"
              variant="outline"
              disabled={previewing.isPending}
              className={team ? 'sm:col-span-2 lg:col-span-4 lg:w-fit' : ''}
            >
              <Search aria-hidden /> {previewing.isPending ? 'Buscando sesiones…' : 'Ver qué se facturará'}
            </Button>
          </form>
        </CardContent>
      </Card>

      {previewing.isError ? <ServerError error={previewing.error} /> : null}
      {preview ? <PreviewList preview={preview.data} team={team} onIssue={() => setConfirming(true)} /> : null}
      {create.isError ? <ServerError error={create.error} /> : null}

      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        destructive={false}
        title={`¿Emitir ${invoicesLabel(preview?.data.invoices ?? 0)}?`}
        description={`Cada factura recibe su número definitivo y su registro VERI*FACTU. Una factura emitida ya no se puede borrar: solo corregir con una rectificativa.${preview?.data.refused ? ' Las que no se pueden emitir quedan sin facturar.' : ''}`}
        confirmLabel="Emitir facturas"
        onConfirm={async () => {
          const batch = await create.mutateAsync(preview!.body).catch((e: unknown) => {
            throw new Error(messageOf(e));
          });
          onStarted(batch.id);
        }}
      />
    </div>
  );
}
