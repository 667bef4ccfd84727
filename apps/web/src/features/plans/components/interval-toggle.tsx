import { RadioGroup } from 'radix-ui';
import { BILLING_INTERVAL_LABELS, BILLING_INTERVALS, type BillingInterval } from '@divan/core';
import { yearlySavingLabel } from '../utils/plan-offer';

/** Mensual / Anual as a segmented control: a radio group, so arrows move between the two and Tab leaves it. */
export function IntervalToggle({ value, onChange }: { value: BillingInterval; onChange: (interval: BillingInterval) => void }) {
  const saving = yearlySavingLabel();
  return (
    <RadioGroup.Root
      value={value}
      onValueChange={(v) => onChange(v as BillingInterval)}
      orientation="horizontal"
      aria-label="Periodo de pago"
      className="inline-flex w-full rounded-lg border bg-muted p-1 sm:w-auto"
    >
      {BILLING_INTERVALS.map((interval) => (
        <RadioGroup.Item
          key={interval}
          value={interval}
          className="inline-flex h-9 flex-1 cursor-pointer items-center justify-center gap-2 whitespace-nowrap rounded-md px-4 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring data-[state=checked]:bg-card data-[state=checked]:text-foreground data-[state=checked]:shadow-sm sm:flex-none"
        >
          {BILLING_INTERVAL_LABELS[interval]}
          {interval === 'year' && saving ? (
            <span className="rounded-full bg-accent px-2 py-0.5 text-xs font-medium text-accent-foreground">{saving}</span>
          ) : null}
        </RadioGroup.Item>
      ))}
    </RadioGroup.Root>
  );
}
