import { FlaskConical } from 'lucide-react';
import { planTexts } from '../utils/plan-offer';

/** «Modo de prueba»: the sandbox or Stripe's test keys — nothing real is charged. */
export function TestModeBadge() {
  return (
    <span
      data-testid="test-mode"
      className="inline-flex items-center gap-1.5 rounded-full bg-warning-bg px-3 py-1 text-[0.8125rem] font-medium text-warning-fg ring-1 ring-inset ring-warning-fg/20"
    >
      <FlaskConical className="size-4" aria-hidden />
      {planTexts.testMode}
    </span>
  );
}
