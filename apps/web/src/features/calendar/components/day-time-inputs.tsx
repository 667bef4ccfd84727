import type { ComponentProps, Ref } from 'react';
import { Input } from '@/components/ui/input';
import { normalizeTime } from '../utils/dates';

export { DayInput } from '@/components/ui/day-input';

type Base = Omit<ComponentProps<'input'>, 'value' | 'onChange' | 'type' | 'ref'> & { value: string; onChange: (value: string) => void; ref?: Ref<HTMLInputElement> };

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
