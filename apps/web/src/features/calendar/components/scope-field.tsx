import { EDIT_SCOPE } from '@divan/core';
import type { Scope } from '../api/types';

export const SCOPE_LABELS: Record<Scope, string> = EDIT_SCOPE.labels;

/** For an occurrence of a series: which sessions a change applies to. */
export function ScopeField({
  value,
  onChange,
  legend = '¿A qué sesiones de la serie se aplica?',
  name,
}: {
  value: Scope;
  onChange: (s: Scope) => void;
  legend?: string;
  name: string;
}) {
  return (
    <fieldset className="grid gap-2 rounded-lg border bg-muted/40 p-3">
      <legend className="px-1 text-sm font-medium">{legend}</legend>
      <div className="flex flex-wrap gap-x-5 gap-y-2">
        {(Object.keys(SCOPE_LABELS) as Scope[]).map((s) => (
          <label key={s} className="flex cursor-pointer items-center gap-2 text-sm">
            <input
              type="radio"
              name={name}
              value={s}
              checked={value === s}
              onChange={() => onChange(s)}
              className="size-4 accent-[var(--primary)]"
            />
            {SCOPE_LABELS[s]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
