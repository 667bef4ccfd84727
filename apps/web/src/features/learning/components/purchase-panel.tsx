import { useEffect, useId, useState, type Ref } from 'react';
import { Link } from 'react-router';
import { CreditCard, Infinity as Unlimited, Lock } from 'lucide-react';
import type { LearningCharge, LearningVideo, Workspace } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { isApiError } from '@/lib/api-client';
import { messageOf } from '@/lib/error-message';
import { formatCurrency } from '@/lib/format';
import { goToProvider, usePurchaseVideo } from '../api/learning-api';

export const PLAN_SETTINGS = '/settings/workspace/plan';

export const purchaseTexts = {
  title: 'Comprar este vídeo',
  unlimited: 'Acceso sin límite: es tuyo para verlo cuantas veces quieras, sin fecha de caducidad.',
  charge: (price: string, workspace: string) =>
    `Al pulsar «Continuar y pagar» se cobrarán ${price} al método de pago configurado en «${workspace}».`,
  notManager: 'Solo quien gestiona el plan del espacio puede comprar vídeos',
  notManagerText: (workspace: string, owner: string) =>
    `La compra se cobra al método de pago de «${workspace}»: puede hacerla ${owner} o quien tenga permiso sobre la facturación del espacio. Si tienes tu propio espacio, ábrelo para comprar desde allí.`,
  planLink: 'Revisar el método de pago en Ajustes › Plan',
  /** «24,79 € + IVA 21 % (5,21 €) = 30,00 €»: what the workspace's billing data make of the price. */
  breakdown: (c: LearningCharge) =>
    `${formatCurrency(c.baseCents)} + IVA ${c.vatRate}\u00a0% (${formatCurrency(c.vatCents)}) = ${formatCurrency(c.totalCents)}`,
  /** No IVA charged (an EU business, outside the VAT territory…): the base and the invoice's legend. */
  untaxed: (c: LearningCharge) => `${formatCurrency(c.baseCents)} sin IVA${c.legend ? ` · ${c.legend}` : ''}`,
  leaving: 'Tu banco pide confirmar el pago: te llevamos a su página…',
} as const;

/**
 * «Continuar y pagar»: no fields, a charge to the workspace's saved payment method (its billing permission),
 * or the bank's check on the provider's page. `headingRef` takes the focus when the preview ends.
 */
export function PurchasePanel({
  video,
  workspace,
  decides,
  onPurchased,
  headingRef,
}: {
  /** `charge`: by the workspace's billing data (none: the price with IVA, as for a buyer in Spain). */
  video: Pick<LearningVideo, 'id' | 'title' | 'priceWithVatCents' | 'charge'>;
  workspace: Pick<Workspace, 'id' | 'name' | 'owner'>;
  /** Owner, or may update the workspace's billing. */
  decides: boolean;
  onPurchased: () => void;
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  const buy = usePurchaseVideo(workspace.id, video.id);
  const [error, setError] = useState<unknown>(null);
  // Leaving for the bank's page: the button keeps spinning until the browser has gone.
  const [leaving, setLeaving] = useState(false);
  const titleId = useId();
  const charge = video.charge ?? null;
  const price = formatCurrency(charge ? charge.totalCents : video.priceWithVatCents);
  const untaxed = !!charge && charge.vatCents === 0;
  const code = isApiError(error) ? error.code : null;
  const refused = !decides || code === 'access_denied';

  // Back from the bank's page through the browser's cache: the page is as it was left; start again.
  useEffect(() => {
    const onShow = (e: PageTransitionEvent) => e.persisted && setLeaving(false);
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, []);

  const submit = async () => {
    setError(null);
    try {
      const result = await buy.mutateAsync();
      if (result.status === 'authenticate') {
        setLeaving(true);
        goToProvider(result.url);
      } else onPurchased();
    } catch (e) {
      setError(e);
    }
  };

  return (
    <form
      aria-labelledby={titleId}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      className="grid gap-4 rounded-xl border bg-card p-5 shadow-xs"
    >
      <h2 id={titleId} ref={headingRef} tabIndex={-1} className="text-base font-semibold outline-none">
        {purchaseTexts.title}
      </h2>
      <p className="tabular-nums" data-testid="learning-price">
        <span className="font-display text-3xl font-semibold">{price}</span>
        <span className="text-sm text-muted-foreground">{untaxed ? ' sin IVA' : ' IVA incluido'}</span>
      </p>
      {charge ? (
        <p className="-mt-2 text-sm tabular-nums text-muted-foreground" data-testid="learning-charge">
          {untaxed ? purchaseTexts.untaxed(charge) : purchaseTexts.breakdown(charge)}
        </p>
      ) : null}
      <ul className="grid gap-2.5 text-sm leading-relaxed">
        <li className="flex gap-2.5">
          <Unlimited className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
          {purchaseTexts.unlimited}
        </li>
        <li className="flex gap-2.5">
          <CreditCard className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
          {purchaseTexts.charge(price, workspace.name)}
        </li>
      </ul>

      {refused ? (
        <div className="grid gap-1.5 rounded-lg bg-muted p-3 text-sm" role={code === 'access_denied' ? 'alert' : undefined}>
          <p className="flex items-center gap-2 font-medium">
            <Lock className="size-4" aria-hidden /> {purchaseTexts.notManager}
          </p>
          <p className="text-muted-foreground">
            {purchaseTexts.notManagerText(workspace.name, workspace.owner.firstName || 'quien lo administra')}
          </p>
        </div>
      ) : (
        <>
          {code === 'learning_purchase_failed' ? (
            <Alert variant="error">
              <p>{messageOf(error)}</p>
              <p className="mt-1">
                <Link to={PLAN_SETTINGS}>{purchaseTexts.planLink}</Link>
              </p>
            </Alert>
          ) : code === 'learning_already_purchased' ? (
            <Alert>{messageOf(error)}</Alert>
          ) : error ? (
            <Alert variant="error">{messageOf(error)}</Alert>
          ) : null}
          {leaving ? (
            <p className="text-sm text-muted-foreground" role="status">
              {purchaseTexts.leaving}
            </p>
          ) : null}
          <Button type="submit" size="lg" loading={buy.isPending || leaving}>
            Continuar y pagar
          </Button>
        </>
      )}
    </form>
  );
}
