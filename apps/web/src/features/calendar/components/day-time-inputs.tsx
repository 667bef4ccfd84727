import type { ComponentProps, Ref } from 'react';
import { isIsoDay } from '@divan/core';
import { Input } from '@/components/ui/input';
import { dmyToIsoDate, isoDateToDmy } from '@/lib/format';
import { normalizeTime } from '../utils/dates';

type Base = Omit<ComponentProps<'input'>, 'value' | 'onChange' | 'type' | 'ref'> & { value: string; onChange: (value: string) => void; ref?: Ref<HTMLInputElement> };

/**
 * A day typed as Spanish people write it (DD/MM/AAAA), whatever the browser's language: the value is
 * 'YYYY-MM-DD' once it is a real day, the raw text until then (the form says what is wrong).
 */
export function DayInput({ value, onChange, ...props }: Base) {
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

/** A time on the 24-hour clock (HH:MM); «9», «930» or «9.30» become 09:00 / 09:30 when leaving the field. */
export function TimeInput({ value, onChange, onBlur, ...props }: Base) {
  return (
    <Input
      {...props}
      inputMode="numeric"
      autoComplete="off"
      placeholder="HH:MM"
      maxLength={5}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onBlur={(e) => {
        const t = normalizeTime(e.target.value);
        if (t && t !== e.target.value) onChange(t);
        onBlur?.(e);
      }}
    />
  );
}
