import { cn } from '@/lib/cn';

/** Determinate when `value` (0–1) is known; otherwise an indeterminate shimmer. */
export function ProgressBar({ value, label, className }: { value: number | null; label: string; className?: string }) {
  const percent = value === null ? null : Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent ?? undefined}
      className={cn('h-2 overflow-hidden rounded-full bg-muted', className)}
    >
      <div
        className={cn('h-full rounded-full bg-primary transition-[width] duration-300', percent === null && 'w-1/3 animate-pulse')}
        style={percent === null ? undefined : { width: `${percent}%` }}
      />
    </div>
  );
}
