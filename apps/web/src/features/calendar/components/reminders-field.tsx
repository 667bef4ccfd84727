import { useId } from 'react';
import { REMINDER_CHOICES } from '../utils/session-form';

type Props = {
  /** null: the therapist's defaults (settings › notificaciones). */
  value: number[] | null;
  max: number;
  error?: string;
  onChange: (value: number[] | null) => void;
  inputRef?: (el: HTMLElement | null) => void;
};

/** Email reminders to the patient: the defaults, or up to the plan's number of offsets. */
export function RemindersField({ value, max, error, onChange, inputRef }: Props) {
  const id = useId();
  const custom = value !== null;
  const chosen = value ?? [];
  return (
    <fieldset className="grid gap-2" aria-describedby={error ? `${id}-error` : `${id}-hint`}>
      <legend className="mb-1.5 text-sm font-medium">Recordatorios al paciente</legend>
      <label className="flex items-center gap-2 text-sm">
        <input
          ref={inputRef}
          type="checkbox"
          checked={!custom}
          onChange={(e) => onChange(e.target.checked ? null : [])}
          className="size-4 accent-[var(--primary)]"
        />
        Los de mis ajustes de notificaciones
      </label>
      {custom ? (
        <div className="flex flex-wrap gap-2">
          {REMINDER_CHOICES.map((c) => {
            const on = chosen.includes(c.minutes);
            const full = !on && chosen.length >= max;
            return (
              <label
                key={c.minutes}
                className={`flex items-center gap-1.5 rounded-full border px-3 py-1 text-[0.8125rem] ${on ? 'border-primary bg-accent text-accent-foreground' : ''} ${full ? 'opacity-50' : 'cursor-pointer'}`}
              >
                <input
                  type="checkbox"
                  className="size-3.5 accent-[var(--primary)]"
                  checked={on}
                  disabled={full}
                  onChange={(e) =>
                    onChange(e.target.checked ? [...chosen, c.minutes].sort((a, b) => b - a) : chosen.filter((m) => m !== c.minutes))
                  }
                />
                {c.label}
              </label>
            );
          })}
        </div>
      ) : null}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-[0.8125rem] font-medium text-destructive">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="text-[0.8125rem] text-muted-foreground">
          {max === 0
            ? 'Tu plan no incluye recordatorios por email.'
            : `Tu plan permite ${max} ${max === 1 ? 'recordatorio' : 'recordatorios'} por sesión.`}
          {custom && !chosen.length ? ' Sin ninguno marcado, no se enviará recordatorio.' : ''}
        </p>
      )}
    </fieldset>
  );
}
