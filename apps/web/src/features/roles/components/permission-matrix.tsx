import { ACTION_LABELS, SUBJECTS, type Subject } from '@divan/core';
import { cn } from '@/lib/cn';
import {
  allowedActions,
  groupedSubjects,
  hasAll,
  MATRIX_ACTIONS,
  toggleAction,
  toggleAll,
  type Matrix,
  type Row,
  type SingleAction,
} from '../utils/permission-matrix';

type Props = {
  value: Matrix;
  onChange?: (m: Matrix) => void;
  readOnly?: boolean;
  /** Whether the editor may tick this cell (they hold it): others stay as they are, unticking allowed. */
  grantable?: (subject: Subject, action: SingleAction) => boolean;
};

const groups = groupedSubjects();
const ownLabel = (s: Subject) => (SUBJECTS[s].group === 'Pacientes' ? 'Solo sus pacientes' : 'Solo sus registros');

function Cell({
  label,
  checked,
  disabled,
  onChange,
  caption,
}: {
  label: string;
  checked: boolean;
  disabled: boolean;
  onChange: (on: boolean) => void;
  caption: string;
}) {
  return (
    <label className={cn('flex w-16 flex-col items-center gap-1 text-xs text-muted-foreground', !disabled && 'cursor-pointer')}>
      <input
        type="checkbox"
        className="size-[1.125rem] accent-[var(--color-primary)] disabled:cursor-not-allowed"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
        aria-label={label}
      />
      {/* Column headers name the cells on wide screens; on phones each cell says it itself. */}
      <span className="md:hidden" aria-hidden>
        {caption}
      </span>
    </label>
  );
}

function OwnSwitch({
  subject,
  row,
  readOnly,
  onChange,
}: {
  subject: Subject;
  row: Row;
  readOnly: boolean;
  onChange: (on: boolean) => void;
}) {
  const disabled = readOnly || row.actions.length === 0;
  return (
    <label className={cn('flex items-center gap-2 text-[0.8125rem]', disabled ? 'text-muted-foreground' : 'cursor-pointer')}>
      <button
        type="button"
        role="switch"
        aria-checked={row.ownOnly}
        aria-label={`${ownLabel(subject)} · ${SUBJECTS[subject].label}`}
        disabled={disabled}
        onClick={() => onChange(!row.ownOnly)}
        className={cn(
          'relative inline-flex h-5 w-9 shrink-0 items-center rounded-full transition-colors disabled:cursor-not-allowed disabled:opacity-50',
          row.ownOnly ? 'bg-primary' : 'bg-input',
        )}
      >
        <span
          className={cn(
            'inline-block size-4 rounded-full bg-white shadow transition-transform',
            row.ownOnly ? 'translate-x-[1.125rem]' : 'translate-x-0.5',
          )}
        />
      </button>
      <span aria-hidden className="whitespace-nowrap">
        {ownLabel(subject)}
      </span>
    </label>
  );
}

/**
 * Rows are subjects grouped as the core groups them, columns Ver/Crear/Editar/Eliminar and "Todo".
 * A cell exists only where the action exists for the subject; "only their own" only where records
 * have an owner.
 */
export function PermissionMatrix({ value, onChange, readOnly = false, grantable = () => true }: Props) {
  const set = (s: Subject, row: Row) => onChange?.({ ...value, [s]: row });

  return (
    <div className="grid gap-6">
      {groups.map(({ group, subjects }) => (
        <section key={group} className="overflow-hidden rounded-xl border bg-card" aria-label={group}>
          <div className="flex items-center gap-3 border-b bg-muted/60 px-4 py-2.5">
            <h3 className="flex-1 text-sm font-semibold">{group}</h3>
            <div className="hidden text-center text-xs font-medium text-muted-foreground md:flex" aria-hidden>
              {MATRIX_ACTIONS.map((a) => (
                <span key={a} className="w-16">
                  {ACTION_LABELS[a]}
                </span>
              ))}
              <span className="w-16">{ACTION_LABELS.manage}</span>
            </div>
            <span className="hidden w-44 md:block" aria-hidden />
          </div>
          <ul className="divide-y">
            {subjects.map((s) => {
              const row = value[s];
              const label = SUBJECTS[s].label;
              return (
                <li key={s} className="flex flex-wrap items-center gap-x-3 gap-y-2 px-4 py-3 md:flex-nowrap" data-subject={s}>
                  <span className="w-full text-sm font-medium md:w-auto md:flex-1">{label}</span>
                  <div className="flex">
                    {MATRIX_ACTIONS.map((a: SingleAction) =>
                      allowedActions(s).includes(a) ? (
                        <Cell
                          key={a}
                          label={`${ACTION_LABELS[a]} · ${label}`}
                          caption={ACTION_LABELS[a]}
                          checked={row.actions.includes(a)}
                          disabled={readOnly || (!row.actions.includes(a) && !grantable(s, a))}
                          onChange={(on) => set(s, toggleAction(row, s, a, on))}
                        />
                      ) : (
                        <span key={a} className="grid w-16 place-items-center text-muted-foreground/50" aria-hidden>
                          –
                        </span>
                      ),
                    )}
                    <Cell
                      label={`${ACTION_LABELS.manage} · ${label}`}
                      caption={ACTION_LABELS.manage}
                      checked={hasAll(row, s)}
                      disabled={readOnly || (!hasAll(row, s) && !allowedActions(s).every((a) => grantable(s, a)))}
                      onChange={(on) => set(s, toggleAll(row, s, on))}
                    />
                  </div>
                  <div className="w-full md:w-44">
                    {SUBJECTS[s].ownable ? (
                      <OwnSwitch subject={s} row={row} readOnly={readOnly} onChange={(on) => set(s, { ...row, ownOnly: on })} />
                    ) : null}
                  </div>
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </div>
  );
}
