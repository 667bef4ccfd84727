import type { ComponentProps } from 'react';
import { ChevronDown } from 'lucide-react';
import { inputBase } from '@/components/ui/input';
import { cn } from '@/lib/cn';

export type Option = { value: string; label: string };

// A <select> matches :read-only, which the text-field look greys out; selects keep the card colour.
const selectClass = cn(inputBase.replace(/\bread-only:\S+/g, ''), 'h-10 cursor-pointer appearance-none pr-9 text-[0.9375rem]');

/** The platform's select: keyboard, screen readers and phone pickers work as people expect. */
export function NativeSelect({
  className,
  options,
  placeholder,
  ...props
}: ComponentProps<'select'> & { options: Option[]; placeholder?: string }) {
  return (
    <div className={cn('relative', className)}>
      <select className={selectClass} {...props}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <ChevronDown className="pointer-events-none absolute right-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
    </div>
  );
}

/** A vocabulary from @divan/core (values + Spanish labels) as select options, in the given order. */
export const optionsOf = <K extends string>(vocab: { values: K[]; labels: Record<K, string> }, sort = false): Option[] => {
  const list = vocab.values.map((value) => ({ value, label: vocab.labels[value] }));
  return sort ? list.sort((a, b) => a.label.localeCompare(b.label, 'es')) : list;
};
