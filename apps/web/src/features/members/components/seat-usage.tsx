import { Link } from 'react-router';
import { cn } from '@/lib/cn';

/** "3 de 5 plazas": members and pending invitations against the plan's seats. */
export function SeatUsage({ used, max }: { used: number; max: number }) {
  const full = used >= max;
  const percent = max > 0 ? Math.min(100, Math.round((used / max) * 100)) : 100;
  return (
    <div className="grid gap-2 rounded-xl border bg-card p-4 shadow-xs">
      <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <span>
          <span className="font-semibold">
            {used} de {max}
          </span>{' '}
          <span className="text-muted-foreground">plazas en uso</span>
        </span>
        <span className="text-[0.8125rem] text-muted-foreground">Miembros e invitaciones pendientes</span>
      </div>
      <div
        className="h-2 overflow-hidden rounded-full bg-muted"
        role="progressbar"
        aria-label="Plazas en uso"
        aria-valuenow={used}
        aria-valuemin={0}
        aria-valuemax={max}
        aria-valuetext={`${used} de ${max} plazas`}
      >
        <div className={cn('h-full rounded-full', full ? 'bg-warning-fg' : 'bg-primary')} style={{ width: `${percent}%` }} />
      </div>
      {full ? (
        <p className="text-[0.8125rem] text-warning-fg">
          Tu plan no permite más miembros en este espacio.{' '}
          <Link to="/settings/workspace/plan" className="font-medium underline">
            Ver plan
          </Link>
        </p>
      ) : null}
    </div>
  );
}
