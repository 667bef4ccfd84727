import { useId, useState } from 'react';
import { RadioGroup } from 'radix-ui';
import { Loader2, TriangleAlert } from 'lucide-react';
import { isSelfServePlan, PLAN_LABELS, SELF_SERVE_PLANS, type BillingChangeBody, type BillingSubscription } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogFooter, DialogHeader } from '@/components/ui/dialog';
import { messageOf } from '@/lib/error-message';
import { formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useChangePlan, useChangePreview } from '../api/plans-api';
import { intervalPriceLines } from '../utils/plan-features';
import { changeSummaryOf, isSameChoice } from '../utils/subscription';
import { IntervalToggle } from './interval-toggle';
import { InvoiceLines } from './invoice-lines';

type Props = { wid: string; subscription: BillingSubscription; onClose: () => void };

/**
 * «Cambiar de plan»: Basic or Premium, monthly or yearly; the server's preview of the change (when it applies,
 * what is charged and when) before «Confirmar cambio» — yearly → monthly applies at the renewal. Its refusals show in place.
 */
export function ChangePlanDialog({ wid, subscription: s, onClose }: Props) {
  const [choice, setChoice] = useState<BillingChangeBody>({ planId: s.planId, interval: s.interval });
  const same = isSameChoice(s, choice);
  const preview = useChangePreview(wid, same ? null : choice);
  const change = useChangePlan(wid);
  const [error, setError] = useState<string | null>(null);
  const summary = !same && preview.data ? changeSummaryOf(s, choice, preview.data) : null;
  const canConfirm = !!summary && preview.isSuccess && !change.isPending;
  const planLabel = useId();

  const choose = (next: Partial<BillingChangeBody>) => {
    setError(null);
    setChoice((c) => ({ ...c, ...next }));
  };

  async function confirm() {
    if (!canConfirm || !summary) return;
    setError(null);
    try {
      await change.mutateAsync(choice);
      toast.success(summary.done);
      onClose();
    } catch (err) {
      setError(messageOf(err));
    }
  }

  return (
    <Dialog open onOpenChange={(open) => (open || change.isPending ? undefined : onClose())}>
      <DialogContent className="max-w-xl">
        {/* Not a <form>: its fields are Radix radio buttons (which add hidden inputs inside one); «Confirmar cambio» is the only way to confirm. */}
        <div className="grid gap-5">
          <DialogHeader
            title="Cambiar de plan"
            description="Elige el plan y cómo pagarlo. Antes de confirmar verás cuándo se aplica el cambio y qué se cobra."
          />

          <div className="grid gap-2">
            <p id={planLabel} className="text-sm font-medium">
              Plan
            </p>
            <RadioGroup.Root
              value={choice.planId}
              onValueChange={(v) => (isSelfServePlan(v) ? choose({ planId: v }) : undefined)}
              aria-labelledby={planLabel}
              className="grid gap-2 sm:grid-cols-2"
            >
              {SELF_SERVE_PLANS.map((id) => {
                const price = intervalPriceLines(id, choice.interval);
                return (
                  <RadioGroup.Item
                    key={id}
                    value={id}
                    className="grid cursor-pointer gap-0.5 rounded-lg border bg-card px-4 py-3 text-left transition-colors hover:bg-muted focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring data-[state=checked]:border-primary data-[state=checked]:ring-1 data-[state=checked]:ring-primary"
                  >
                    <span className="flex flex-wrap items-center gap-2 text-[0.9375rem] font-semibold">
                      {PLAN_LABELS[id]}
                      {s.planId === id ? <span className="text-xs font-medium text-muted-foreground">Tu plan</span> : null}
                    </span>
                    {price ? (
                      <span className="text-[0.8125rem] text-muted-foreground">
                        {price.amount} {price.per}
                      </span>
                    ) : null}
                  </RadioGroup.Item>
                );
              })}
            </RadioGroup.Root>
          </div>

          <div className="grid gap-2">
            <p className="text-sm font-medium" aria-hidden>
              Periodo de pago
            </p>
            <IntervalToggle value={choice.interval} onChange={(interval) => choose({ interval })} />
          </div>

          <div className="grid gap-3" aria-live="polite" data-testid="change-preview">
            {same ? (
              <p className="text-sm text-muted-foreground">Es tu plan actual. Elige otro plan o periodo para ver qué cambiaría.</p>
            ) : preview.isError ? (
              <Alert variant="error">{messageOf(preview.error)}</Alert>
            ) : !summary ? (
              <p className="flex items-center gap-2 text-sm text-muted-foreground">
                <Loader2 className="size-4 animate-spin" aria-hidden /> Calculando el cambio…
              </p>
            ) : (
              <>
                <div className="grid gap-1 rounded-lg bg-muted px-4 py-3 text-sm leading-relaxed">
                  <p className="font-medium">{summary.when}</p>
                  <p>{summary.charge}</p>
                </div>
                {summary.warning ? (
                  <p className="flex items-start gap-2 rounded-lg border border-warning-fg/20 bg-warning-bg px-4 py-3 text-sm leading-relaxed text-warning-fg">
                    <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
                    <span>{summary.warning}</span>
                  </p>
                ) : null}
                {preview.data && preview.data.lines.length > 0 ? (
                  <InvoiceLines
                    preview={preview.data}
                    label={
                      choice.interval !== s.interval
                        ? 'Lo que se cobra ahora'
                        : `Próxima factura, el ${formatDate(preview.data.nextPaymentAt)}`
                    }
                  />
                ) : null}
              </>
            )}
          </div>

          {error ? <Alert variant="error">{error}</Alert> : null}

          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={change.isPending}>
              Cancelar
            </Button>
            <Button type="button" loading={change.isPending} disabled={!canConfirm} onClick={() => void confirm()}>
              Confirmar cambio
            </Button>
          </DialogFooter>
        </div>
      </DialogContent>
    </Dialog>
  );
}
