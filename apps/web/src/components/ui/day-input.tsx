import type { ComponentProps, Ref } from 'react';
import { isIsoDay } from '@divan/core';
import { Input } from '@/components/ui/input';
import { dmyToIsoDate, isoDateToDmy } from '@/lib/format';

type Props = Omit<ComponentProps<'input'>, 'value' | 'onChange' | 'type' | 'ref'> & {
  value: string;
  onChange: (value: string) => void;
  ref?: Ref<HTMLInputElement>;
};

/**
 * A day typed as Spanish people write it (DD/MM/AAAA), whatever the browser's language: the value is
 * 'YYYY-MM-DD' once it is a real day, the raw text until then (the form says what is wrong).
 */
export function DayInput({ value, onChange, ...props }: Props) {
  return (
    <Input
      {...props}
      inputMode="numeric"
      autoComplete="off"
      placeholder="DD/MM/AAAA"
      value={isIsoDay(value) ? isoDateToDmy(value) : value}
      onChange={(e) => onChange(dmyToIsoDate(e.target.value) || e.target.value)}
    />
  );
}
