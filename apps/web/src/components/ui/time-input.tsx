import type { ComponentProps, Ref } from 'react';
import { Input } from '@/components/ui/input';

type Props = Omit<ComponentProps<'input'>, 'value' | 'onChange' | 'type' | 'ref'> & { value: string; onChange: (value: string) => void; ref?: Ref<HTMLInputElement> };

const pad = (n: number) => String(n).padStart(2, '0');

/** «9», «930», «9.30» or «9h30» as 'HH:mm' on the 24-hour clock, or null. */
export function normalizeHHmm(text: string): string | null {
  const m = /^(\d{1,2})(?::?(\d{2}))?$/.exec(text.trim().replace(/[.h]/i, ':'));
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2] ?? '0');
  return h > 23 || min > 59 ? null : `${pad(h)}:${pad(min)}`;
}

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
