import { formatCents, type CompanionSession } from '@divan/core';
import { hrefOf } from './router';
import { changeableLabel, placeOf, sessionWhen } from './session-format';
import { Button, cx, Link } from './ui';

type Props = {
  fileId: string;
  session: CompanionSession;
  /** An upcoming session: its video room, and what the patient may change. */
  upcoming: boolean;
  onCancel: (session: CompanionSession) => void;
  onMove: (session: CompanionSession) => void;
};

const STATUS: Record<CompanionSession['status'], string | null> = { pending: null, completed: 'Realizada', canceled: 'Cancelada' };

/** One session: the day, the hours and length, where, with whom; the video room and the changes allowed. */
export function SessionCard({ fileId, session: s, upcoming, onCancel, onMove }: Props) {
  const when = sessionWhen(s);
  const status = STATUS[s.status];
  const live = upcoming && s.status !== 'canceled';
  const until = live ? changeableLabel(s) : null;
  return (
    <li
      data-testid="session-card"
      className={cx('grid gap-3 rounded-xl border bg-card p-4 shadow-xs', s.status === 'canceled' && 'opacity-75')}
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-semibold first-letter:uppercase">{when.dayLabel}</p>
          <p className="text-[0.9375rem] tabular-nums">
            {when.from} – {when.to} <span className="text-muted-foreground">· {when.duration}</span>
          </p>
        </div>
        {status ? (
          <span
            className={cx(
              'shrink-0 rounded-full px-2.5 py-0.5 text-xs font-semibold',
              s.status === 'canceled' ? 'bg-destructive/10 text-destructive' : 'bg-muted text-muted-foreground',
            )}
          >
            {status}
          </span>
        ) : null}
      </div>
      <dl className="grid gap-0.5 text-[0.9375rem]">
        <div>
          <dt className="sr-only">Dónde</dt>
          <dd>{placeOf(s)}</dd>
        </div>
        <div>
          <dt className="sr-only">Con</dt>
          <dd className="text-muted-foreground">
            Con {s.therapistName}
            {s.service ? ` · ${s.service.title}` : ''}
          </dd>
        </div>
        {s.payment ? (
          <div>
            <dt className="sr-only">Pago</dt>
            <dd className="text-muted-foreground" data-testid="session-payment">
              {paymentText(s.payment)}
            </dd>
          </div>
        ) : null}
      </dl>
      {live && s.videoLink ? (
        <a
          href={s.videoLink}
          target="_blank"
          rel="noopener"
          className="inline-flex min-h-11 items-center justify-center rounded-md bg-primary px-4 text-[0.9375rem] font-medium text-primary-foreground no-underline shadow-sm hover:bg-primary-hover focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        >
          Entrar a la videollamada
        </a>
      ) : null}
      {live && (s.canMove || s.canCancel) ? (
        <div className="grid gap-2">
          <div className="flex flex-wrap gap-2">
            {s.canMove ? (
              <Button
                variant="outline"
                data-move={s.id}
                onClick={() => onMove(s)}
                aria-label={`Cambiar hora de la sesión del ${when.dayLabel} a las ${when.from}`}
              >
                Cambiar hora
              </Button>
            ) : null}
            {s.canCancel ? (
              <Button
                variant="ghost"
                className="text-destructive"
                onClick={() => onCancel(s)}
                aria-label={`Cancelar la sesión del ${when.dayLabel} a las ${when.from}`}
              >
                Cancelar
              </Button>
            ) : null}
          </div>
          {until ? <p className="text-[0.8125rem] text-muted-foreground">{until}</p> : null}
        </div>
      ) : live ? (
        <p className="text-[0.8125rem] text-muted-foreground">
          Para cancelarla o cambiarla, <Link href={hrefOf(fileId, 'chat')}>escribe a tu terapeuta</Link>.
        </p>
      ) : null}
    </li>
  );
}

/** What was paid at booking, and where its refund is once cancelled. */
function paymentText(p: NonNullable<CompanionSession['payment']>): string {
  const amount = formatCents(p.amountCents);
  if (p.refund === 'done') return `Te devolvimos los ${amount} que pagaste al reservar.`;
  if (p.refund === 'pending') return `Te estamos devolviendo los ${amount} que pagaste al reservar.`;
  return `Pagada al reservar: ${amount}.`;
}
