import { useRef, type KeyboardEvent } from 'react';
import type { TreatmentStatus } from '@divan/core';
import { cn } from '@/lib/cn';
import { formatCount } from '../utils/format';

type Counts = { active: number; paused: number; inactive: number };
const tabs: { status: TreatmentStatus | null; label: string }[] = [
  { status: null, label: 'Todos' },
  { status: 'active', label: 'Activos' },
  { status: 'paused', label: 'En pausa' },
  { status: 'inactive', label: 'Inactivos' },
];

/** Todos / Activos / En pausa / Inactivos with their counts; arrow keys move between them. */
export function StatusTabs({
  value,
  counts,
  onChange,
}: {
  value: TreatmentStatus | null;
  counts: Counts | undefined;
  onChange: (s: TreatmentStatus | null) => void;
}) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const countOf = (s: TreatmentStatus | null) => (counts ? (s ? counts[s] : counts.active + counts.paused + counts.inactive) : null);
  const onKeyDown = (e: KeyboardEvent, index: number) => {
    const delta = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!delta) return;
    e.preventDefault();
    const next = (index + delta + tabs.length) % tabs.length;
    refs.current[next]?.focus();
    onChange(tabs[next]!.status);
  };

  return (
    <div role="tablist" aria-label="Estado del tratamiento" className="-mx-4 flex gap-1 overflow-x-auto border-b px-4 sm:mx-0 sm:px-0">
      {tabs.map((tab, i) => {
        const selected = value === tab.status;
        const n = countOf(tab.status);
        return (
          <button
            key={tab.label}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="tab"
            aria-selected={selected}
            aria-controls="patients-panel"
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(tab.status)}
            onKeyDown={(e) => onKeyDown(e, i)}
            className={cn(
              '-mb-px flex h-10 shrink-0 items-center gap-2 border-b-2 px-3 text-sm font-medium transition-colors',
              selected ? 'border-primary text-foreground' : 'border-transparent text-muted-foreground hover:text-foreground',
            )}
          >
            {tab.label}
            {n !== null ? (
              <span
                className={cn(
                  'rounded-full px-1.5 py-0.5 text-xs tabular-nums',
                  selected ? 'bg-accent text-accent-foreground' : 'bg-muted',
                )}
              >
                {formatCount(n)}
              </span>
            ) : null}
          </button>
        );
      })}
    </div>
  );
}
