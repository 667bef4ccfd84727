import { useState } from 'react';
import type { CompanionCard } from '@divan/core';
import { cardApi, goTo } from './billing-api';
import { brandName, cardExpired, cardExpiry } from './billing-format';
import { ConfirmDialog } from './confirm-dialog';
import { asFailure, messageOf } from './errors';
import { Alert, Button, cx, h2Class, Skeleton } from './ui';
import { useLoad } from '../public-kit/use-load';
import { useRereadWhile } from './use-reread';

/**
 * The card saved on the therapist's account and «Cobros automáticos»: save or change it (a checkout),
 * the switch (applied at once, put back with the reason when the server refuses), and «Quitar tarjeta».
 * Nothing when the therapist takes no card payments and none was saved. `justSaved`: back from the setup checkout.
 */
export function CardBlock({ fileId, justSaved = false }: { fileId: string; justSaved?: boolean }) {
  const card = useLoad(`card/${fileId}`, (signal) => cardApi.get(fileId, signal));
  // Back from saving it: the webhook records the card a moment later, so read again a few times.
  useRereadWhile((rereads) => justSaved && rereads < 5 && !!card.data && !card.data.card, card.retry, card.data);
  const [busy, setBusy] = useState<'setup' | 'remove' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);
  const [removeError, setRemoveError] = useState<string | null>(null);

  if (card.failure)
    return (
      <section aria-labelledby="card-title" className="grid gap-3 rounded-xl border bg-card p-4" data-testid="card-block">
        <h2 id="card-title" className={h2Class}>
          Tarjeta
        </h2>
        <Alert>{messageOf(card.failure)}</Alert>
        <div>
          <Button variant="outline" onClick={card.retry}>
            Reintentar
          </Button>
        </div>
      </section>
    );
  if (!card.data) return <Skeleton className="h-32 rounded-xl" />;
  const data = card.data;
  if (!data.canSave && !data.card) return null;

  const setup = async () => {
    setBusy('setup');
    setError(null);
    try {
      goTo(await cardApi.setup(fileId));
      return;
    } catch (e) {
      setError(messageOf(asFailure(e)));
    }
    setBusy(null);
  };
  const remove = async () => {
    setBusy('remove');
    setRemoveError(null);
    try {
      card.set(await cardApi.remove(fileId));
      setRemoving(false);
    } catch (e) {
      setRemoveError(messageOf(asFailure(e)));
    }
    setBusy(null);
  };

  return (
    <section aria-labelledby="card-title" className="grid gap-3 rounded-xl border bg-card p-4 shadow-xs" data-testid="card-block">
      <h2 id="card-title" className={h2Class}>
        {data.card ? 'Tarjeta guardada' : 'No tienes tarjeta guardada'}
      </h2>
      {data.card ? (
        <p className="flex flex-wrap items-baseline gap-x-3 text-[0.9375rem]" data-testid="saved-card">
          <span className="font-medium">
            {brandName(data.card.brand)} <span aria-hidden>••••</span>
            <span className="sr-only">terminada en</span> {data.card.last4}
          </span>
          <span className={cx('text-muted-foreground', cardExpired(data.card) && 'font-medium text-destructive')}>
            {cardExpired(data.card) ? 'Caducó' : 'Caduca'} {cardExpiry(data.card)}
          </span>
        </p>
      ) : (
        <p className="text-[0.9375rem] text-muted-foreground">Guárdala para pagar tus sesiones sin tener que introducirla cada vez.</p>
      )}
      {!data.card && data.mandate ? <p className="text-[0.8125rem] text-muted-foreground">{data.mandate}</p> : null}
      {data.card ? <AutoChargeSwitch fileId={fileId} card={data} onSaved={card.set} /> : null}
      {error ? <Alert>{error}</Alert> : null}
      <div className="flex flex-wrap gap-2">
        {data.canSave ? (
          <Button
            variant={data.card ? 'outline' : 'primary'}
            loading={busy === 'setup'}
            disabled={busy !== null}
            onClick={() => void setup()}
          >
            {data.card ? 'Cambiar tarjeta' : 'Guardar una tarjeta'}
          </Button>
        ) : null}
        {data.card ? (
          <Button variant="ghost" className="text-destructive" disabled={busy !== null} onClick={() => setRemoving(true)}>
            Quitar tarjeta
          </Button>
        ) : null}
      </div>
      {removing ? (
        <ConfirmDialog
          title="¿Quitar la tarjeta guardada?"
          confirmLabel="Quitar tarjeta"
          keepLabel="Conservarla"
          busy={busy === 'remove'}
          error={removeError}
          onConfirm={() => void remove()}
          onClose={() => {
            setRemoving(false);
            setRemoveError(null);
          }}
        >
          <p>Tu terapeuta ya no podrá cobrarte con ella. Podrás guardar otra cuando quieras.</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

/** «Cobros automáticos»: a switch (Space or Enter), shown on at once and put back if the server refuses. */
function AutoChargeSwitch({ fileId, card, onSaved }: { fileId: string; card: CompanionCard; onSaved: (card: CompanionCard) => void }) {
  const [shown, setShown] = useState<boolean | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const on = shown ?? card.autoCharge;
  const toggle = async () => {
    if (saving) return;
    const next = !on;
    setShown(next);
    setSaving(true);
    setError(null);
    try {
      onSaved(await cardApi.autoCharge(fileId, next));
    } catch (e) {
      setError(messageOf(asFailure(e)));
    }
    setShown(null);
    setSaving(false);
  };
  return (
    <div className="grid gap-2 border-t pt-3">
      <div className="flex items-center justify-between gap-4">
        <div className="min-w-0">
          <span id="auto-charge-label" className="font-medium">
            Cobros automáticos
          </span>
          <p id="auto-charge-text" className="text-[0.8125rem] text-muted-foreground">
            {on ? `${card.therapistName ?? 'Tu terapeuta'} te cobra las sesiones con esta tarjeta.` : 'Pagarás cada factura tú desde aquí.'}
          </p>
        </div>
        <button
          type="button"
          role="switch"
          aria-checked={on}
          aria-labelledby="auto-charge-label"
          aria-describedby="auto-charge-text"
          aria-busy={saving || undefined}
          data-testid="auto-charge"
          onClick={() => void toggle()}
          className={cx(
            'relative inline-flex h-7 w-12 shrink-0 cursor-pointer items-center rounded-full border-2 border-transparent transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
            on ? 'bg-primary' : 'bg-muted-foreground/45',
          )}
        >
          <span
            aria-hidden
            className={cx('size-6 rounded-full bg-white shadow transition-transform', on ? 'translate-x-5' : 'translate-x-0')}
          />
        </button>
      </div>
      {error ? <Alert>{error}</Alert> : null}
    </div>
  );
}
