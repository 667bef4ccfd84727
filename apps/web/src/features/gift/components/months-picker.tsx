import { Check } from 'lucide-react';
import { GIFT_MONTHS, giftPriceOf } from '@divan/core';
import { cn } from '@/lib/cn';
import { formatCurrency } from '@/lib/format';
import { monthsLabel } from '../utils/gift-code';

/**
 * How many months of Premium: four cards over native radios (arrows move the choice, Tab leaves the
 * group, the form knows the value), each with its price before VAT.
 */
export function MonthsPicker({
  name,
  value,
  onChange,
  labelledBy,
  disabled,
}: {
  name: string;
  value: number;
  onChange: (months: number) => void;
  labelledBy: string;
  disabled?: boolean;
}) {
  return (
    <div role="radiogroup" aria-labelledby={labelledBy} className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {GIFT_MONTHS.map((months) => (
        <label
          key={months}
          className={cn(
            'relative grid cursor-pointer content-start gap-1 rounded-xl border bg-card p-4 transition-colors hover:border-primary/50',
            'has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-ring',
            'has-checked:border-primary has-checked:bg-accent has-checked:ring-1 has-checked:ring-primary',
            'has-disabled:cursor-not-allowed has-disabled:opacity-60',
          )}
        >
          <input
            type="radio"
            name={name}
            value={months}
            checked={value === months}
            onChange={() => onChange(months)}
            disabled={disabled}
            className="peer sr-only"
          />
          <span className="font-display text-xl font-semibold tracking-tight">{monthsLabel(months)}</span>
          <span className="text-sm tabular-nums">
            <span className="font-medium">{formatCurrency(giftPriceOf(months))}</span>
            <span className="text-muted-foreground"> + IVA</span>
          </span>
          {/* The chosen card's check, on its corner. */}
          <span
            aria-hidden
            className="absolute -right-2 -top-2 hidden size-6 place-items-center rounded-full bg-primary text-primary-foreground shadow-sm ring-2 ring-card peer-checked:grid"
          >
            <Check className="size-3.5" />
          </span>
        </label>
      ))}
    </div>
  );
}
