import { useState } from 'react';
import type { z } from 'zod';
import { DayInput } from '@/components/ui/day-input';
import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/native-select';
import { DATE_PRESET_LABELS, presetRange } from '../utils/date-presets';

const PRESETS = ['lastMonth', 'thisMonth', 'lastWeek', 'thisWeek'] as const;
export type Period = (typeof PRESETS)[number] | 'custom';
export type Range = { from: string; to: string };
export type RangeErrors = Partial<Record<'from' | 'to', string>>;

/** The period's rules from a core schema (the server checks them again): the first message of each end. */
export function rangeErrors(schema: z.ZodType, body: object): RangeErrors {
  const parsed = schema.safeParse(body);
  if (parsed.success) return {};
  const errors: RangeErrors = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path[0];
    if ((key === 'from' || key === 'to') && !errors[key]) errors[key] = issue.message;
  }
  return errors;
}

/** A period: a preset (last month by default) or two days typed DD/MM/AAAA; `onChange` after any change. */
export function usePeriod(onChange?: () => void) {
  const [period, setPeriod] = useState<Period>('lastMonth');
  const [range, setRange] = useState<Range>(presetRange('lastMonth'));
  const choose = (next: Period) => {
    setPeriod(next);
    if (next !== 'custom') setRange(presetRange(next));
    onChange?.();
  };
  const edit = (patch: Partial<Range>) => {
    setPeriod('custom');
    setRange((r) => ({ ...r, ...patch }));
    onChange?.();
  };
  return { period, range, choose, edit };
}

export function PeriodFields({ state, errors }: { state: ReturnType<typeof usePeriod>; errors: RangeErrors }) {
  return (
    <>
      <Field label="Periodo">
        <NativeSelect
          value={state.period}
          onChange={(e) => state.choose(e.target.value as Period)}
          options={[...PRESETS.map((p) => ({ value: p, label: DATE_PRESET_LABELS[p] })), { value: 'custom', label: 'Otras fechas' }]}
        />
      </Field>
      <Field label="Desde" error={errors.from}>
        <DayInput value={state.range.from} onChange={(from) => state.edit({ from })} required />
      </Field>
      <Field label="Hasta" error={errors.to}>
        <DayInput value={state.range.to} onChange={(to) => state.edit({ to })} required />
      </Field>
    </>
  );
}
