import { TREATMENT_STATUS, type TreatmentStatus } from '@divan/core';
import { cn } from '@/lib/cn';

const tones = {
  // A darker green than --success for small text on the tinted background (WCAG AA).
  active: 'bg-success/10 text-[#1f5c39] ring-success/25 dark:text-success',
  paused: 'bg-warning-bg text-warning-fg ring-warning-fg/20',
  inactive: 'bg-muted text-muted-foreground ring-border',
};

/** Activo / En pausa / Inactivo, with a dot so the state is not told by colour alone; nothing for a member who may not read the treatment. */
export function StatusBadge({ status }: { status: TreatmentStatus | undefined }) {
  if (!status) return null;
  return (
    <span
      className={cn(
        'inline-flex h-6 shrink-0 items-center gap-1.5 whitespace-nowrap rounded-full px-2.5 text-xs font-medium ring-1 ring-inset',
        tones[status],
      )}
    >
      <span
        className={cn(
          'size-1.5 rounded-full',
          status === 'active' ? 'bg-success' : status === 'paused' ? 'bg-warning-fg' : 'bg-muted-foreground',
        )}
        aria-hidden
      />
      {TREATMENT_STATUS.labels[status]}
    </span>
  );
}
