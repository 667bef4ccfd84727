import type { Tone } from './billing-format';
import { cx } from './ui';

/** A state in words on a soft pill: what waits for the patient stands out, what is done calms down. */
export function StatusBadge({ label, tone, testId }: { label: string; tone: Tone; testId?: string }) {
  return (
    <span
      data-testid={testId}
      className={cx(
        'inline-flex items-center whitespace-nowrap rounded-full px-2.5 py-0.5 text-[0.8125rem] font-medium',
        tone === 'pending' && 'bg-warning-bg text-warning-fg',
        tone === 'done' && 'bg-accent text-accent-foreground',
        tone === 'muted' && 'bg-muted text-muted-foreground',
      )}
    >
      {label}
    </span>
  );
}
