import type { ComponentProps, Ref } from 'react';
import { Input } from '@/components/ui/input';
import { normalizeHHmm } from '@/lib/time-text';

type Props = Omit<ComponentProps<'input'>, 'value' | 'onChange' | 'type' | 'ref'> & {
  value: string;
  onChange: (value: string) => void;
  ref?: Ref<HTMLInputElement>;
};

/**
 * A time on the 24-hour clock (HH:MM) whatever the browser's language (a native time input shows AM/PM
 * on an English system); what is typed is tidied when leaving the field.
 */
export function TimeInput({ value, onChange, onBlur, ...props }: Props) {
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
        const t = normalizeHHmm(e.target.value);
        if (t && t !== e.target.value) onChange(t);
        onBlur?.(e);
      }}
    />
  );
}
