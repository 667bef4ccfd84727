import type { ReactNode } from 'react';
import { ListChecks } from 'lucide-react';
import { cn } from '@/lib/cn';
import { delta } from '../utils/figures';

type Props = {
  label: string;
  /** The figure as shown («1.234,56 €», «12,5 %»); null: the member reads none of it. */
  value: string | null;
  current?: number | null;
  previous?: number | null;
  /** Whether a rise is good news (fewer cancellations is). */
  upIsGood?: boolean;
  hint?: ReactNode;
  /** Opens the rows the card counts. */
  onOpen?: () => void;
};

/** A figure of the period, ▲▼ against the period before, and (a button) the rows it counts. */
export function StatCard({ label, value, current = null, previous = null, upIsGood = true, hint, onOpen }: Props) {
  const d = delta(current, previous, upIsGood);
  const body = (
    <>
      <span className="text-[0.8125rem] font-medium text-muted-foreground">{label}</span>
      <span className="font-display text-2xl font-semibold tabular-nums tracking-tight">{value ?? '—'}</span>
      <span className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
        {d ? (
          <span
            className={cn(
              'rounded-full px-1.5 py-0.5 font-medium tabular-nums',
              d.tone === 'good' && 'bg-success/10 text-success',
              d.tone === 'bad' && 'bg-destructive/10 text-destructive',
              d.tone === 'same' && 'bg-muted',
            )}
          >
            <span className="sr-only">Respecto al periodo anterior: </span>
            {d.text}
          </span>
        ) : null}
        {hint}
      </span>
    </>
  );
  const box = 'grid min-h-28 content-start gap-1.5 rounded-xl border bg-card p-4 text-left shadow-xs';
  if (!onOpen) return <div className={box}>{body}</div>;
  return (
    <button
      type="button"
      onClick={onOpen}
      className={cn(box, 'group relative transition-colors hover:border-primary/50 focus-visible:outline-2 focus-visible:outline-primary')}
      aria-haspopup="dialog"
    >
      {body}
      <ListChecks className="absolute right-3 top-3 size-4 text-muted-foreground opacity-60 group-hover:opacity-100" aria-hidden />
      <span className="sr-only">Ver el detalle</span>
    </button>
  );
}

export function StatGrid({ children }: { children: ReactNode }) {
  return <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-4">{children}</div>;
}
