import { useState, type FormEvent } from 'react';
import { PERIOD_PRESET_LABELS, PERIOD_PRESETS, periodProblem, presetOf, presetPeriod, type Period, type PeriodPreset } from '@divan/core';
import { Button } from '@/components/ui/button';
import { DayInput } from '@/components/ui/day-input';
import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/native-select';
import { longDay } from '../utils/figures';

const CUSTOM = 'custom';
const options = [...PERIOD_PRESETS.map((p) => ({ value: p, label: PERIOD_PRESET_LABELS[p] })), { value: CUSTOM, label: 'Personalizado…' }];

/**
 * The period: a preset of spec §9 (weeks from Monday, months whole) or a custom range of days typed as
 * DD/MM/AAAA; the range is applied when it is valid, with the reason in Spanish when it is not.
 */
export function PeriodPicker({ value, today, onChange }: { value: Period; today: string; onChange: (p: Period) => void }) {
  const preset = presetOf(value, today);
  const [custom, setCustom] = useState(preset === null);
  const [draft, setDraft] = useState(value);
  const [error, setError] = useState<string | null>(null);

  const pick = (v: string) => {
    if (v === CUSTOM) {
      setDraft(value);
      setCustom(true);
      return;
    }
    setCustom(false);
    setError(null);
    onChange(presetPeriod(v as PeriodPreset, today));
  };
  const apply = (e: FormEvent) => {
    e.preventDefault();
    const problem = periodProblem(draft);
    setError(problem);
    if (!problem) onChange(draft);
  };

  return (
    <div className="flex flex-wrap items-end gap-3">
      <Field label="Periodo" className="w-48">
        <NativeSelect value={custom ? CUSTOM : (preset ?? CUSTOM)} onChange={(e) => pick(e.target.value)} options={options} />
      </Field>
      {custom ? (
        <form onSubmit={apply} className="flex flex-wrap items-end gap-3" noValidate>
          <Field label="Desde" className="w-36" error={error ?? undefined}>
            <DayInput value={draft.from} onChange={(from) => setDraft((d) => ({ ...d, from }))} />
          </Field>
          <Field label="Hasta" className="w-36">
            <DayInput value={draft.to} onChange={(to) => setDraft((d) => ({ ...d, to }))} />
          </Field>
          <Button type="submit" variant="outline">
            Aplicar
          </Button>
        </form>
      ) : (
        <p className="pb-2.5 text-sm text-muted-foreground tabular-nums">
          {value.from === value.to ? longDay(value.from) : `${longDay(value.from)} – ${longDay(value.to)}`}
        </p>
      )}
    </div>
  );
}
