import { useId, useState, type Ref } from 'react';
import { Search, X } from 'lucide-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { TREATMENT_STATUS, type TreatmentStatus } from '@divan/core';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { useDebounced } from '@/lib/use-debounced';
import { api } from '@/lib/api-client';
import { workspaceKey } from '@/lib/workspace-keys';

export type PickedPatient = { id: string; name: string };
type PatientHit = { id: string; firstName: string; lastName: string | null; email: string | null; phone: string | null; status?: string };

/** Up to 8 patients matching `q` (name, email, phone), from 2 letters on. */
const usePatientHits = (wid: string, q: string) =>
  useQuery<PatientHit[]>({
    queryKey: workspaceKey(wid, 'patients', 'picker', q),
    queryFn: ({ signal }) =>
      api<{ items: PatientHit[] }>(`/workspaces/${wid}/patients`, {
        query: { q, page: 1, pageSize: 8, sort: 'lastName', dir: 'asc' },
        signal,
      }).then((r) => r.items),
    enabled: q.length >= 2,
    placeholderData: keepPreviousData,
  });

type Props = {
  workspaceId: string;
  value: PickedPatient | null;
  onChange: (patient: PickedPatient | null) => void;
  inputRef?: Ref<HTMLInputElement>;
  id?: string;
  placeholder?: string;
  'aria-label'?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
  disabled?: boolean;
};

const nameOf = (p: { firstName: string; lastName: string | null }) => [p.firstName, p.lastName].filter(Boolean).join(' ');

/** A search box over the patients API (name, email, phone): arrows move, Enter picks, Esc closes the list. */
export function PatientPicker({
  workspaceId,
  value,
  onChange,
  inputRef,
  id,
  placeholder = 'Busca por nombre, email o teléfono',
  disabled,
  ...aria
}: Props) {
  const [typed, setTyped] = useState('');
  const [active, setActive] = useState(0);
  const [open, setOpen] = useState(false);
  const q = useDebounced(typed.trim(), 250);
  const hits = usePatientHits(workspaceId, q);
  const list = q.length >= 2 ? (hits.data ?? []) : [];
  const listId = useId();

  if (value) {
    return (
      <div className="flex h-10 min-w-0 items-center justify-between gap-2 rounded-md border border-input bg-muted/50 px-3">
        <span className="truncate text-[0.9375rem] font-medium" data-testid="picked-patient">
          {value.name}
        </span>
        {disabled ? null : (
          <button
            type="button"
            className="rounded p-1 text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
            aria-label={`Quitar paciente (ahora ${value.name})`}
            onClick={() => {
              onChange(null);
              setTyped('');
            }}
          >
            <X className="size-4" aria-hidden />
          </button>
        )}
      </div>
    );
  }

  const pick = (i: number) => {
    const p = list[i];
    if (!p) return;
    onChange({ id: p.id, name: nameOf(p) });
    setOpen(false);
  };

  return (
    <div className="relative">
      <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
      <Input
        ref={inputRef}
        id={id}
        role="combobox"
        aria-label={aria['aria-label']}
        aria-expanded={open && list.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && list[active] ? `${listId}-${active}` : undefined}
        aria-invalid={aria['aria-invalid'] || undefined}
        aria-describedby={aria['aria-describedby']}
        autoComplete="off"
        placeholder={placeholder}
        className="pl-9"
        value={typed}
        disabled={disabled}
        onChange={(e) => {
          setTyped(e.target.value);
          setActive(0);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setOpen(true);
            setActive((a) => Math.min(a + 1, Math.max(list.length - 1, 0)));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((a) => Math.max(a - 1, 0));
          } else if (e.key === 'Enter' && open && list.length) {
            e.preventDefault();
            pick(active);
          } else if (e.key === 'Escape' && open && list.length) {
            e.preventDefault();
            e.stopPropagation();
            setOpen(false);
          }
        }}
      />
      {open && q.length >= 2 ? (
        <div className="absolute inset-x-0 top-full z-20 mt-1 overflow-hidden rounded-md border bg-card shadow-lg">
          {hits.isFetching && !list.length ? (
            <div className="p-3">
              <Spinner label="Buscando pacientes…" />
            </div>
          ) : list.length ? (
            <ul id={listId} role="listbox" aria-label="Pacientes encontrados" className="max-h-60 overflow-y-auto py-1">
              {list.map((p, i) => (
                <li
                  key={p.id}
                  id={`${listId}-${i}`}
                  role="option"
                  aria-selected={i === active}
                  className={cn(
                    'flex cursor-pointer items-center justify-between gap-3 px-3 py-2 text-sm',
                    i === active && 'bg-accent text-accent-foreground',
                  )}
                  onMouseDown={(e) => e.preventDefault()}
                  onMouseEnter={() => setActive(i)}
                  onClick={() => pick(i)}
                >
                  <span className="min-w-0">
                    <span className="block truncate font-medium">{nameOf(p)}</span>
                    {p.email || p.phone ? <span className="block truncate text-xs text-muted-foreground">{p.email ?? p.phone}</span> : null}
                  </span>
                  {p.status && p.status !== 'active' ? (
                    <span className="shrink-0 rounded-full bg-muted px-2 py-0.5 text-xs text-muted-foreground">
                      {TREATMENT_STATUS.labels[p.status as TreatmentStatus] ?? p.status}
                    </span>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : (
            <p className="p-3 text-sm text-muted-foreground">Ningún paciente coincide con «{q}».</p>
          )}
        </div>
      ) : null}
    </div>
  );
}
