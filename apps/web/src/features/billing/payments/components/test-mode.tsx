import { FlaskConical } from 'lucide-react';
import { cn } from '@/lib/cn';

/** «Modo de prueba»: Stripe's test mode or Diván's sandbox. Words, not only a colour. */
export function TestModeBadge({ className }: { className?: string }) {
  return (
    <span
      className={cn(
        'inline-flex h-6 shrink-0 items-center gap-1.5 whitespace-nowrap rounded-full bg-warning-bg px-2.5 text-xs font-medium text-warning-fg ring-1 ring-inset ring-warning-fg/20',
        className,
      )}
      data-testid="test-mode"
    >
      <FlaskConical className="size-3.5" aria-hidden />
      Modo de prueba
    </span>
  );
}
