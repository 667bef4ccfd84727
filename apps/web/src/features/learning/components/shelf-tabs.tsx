import { useRef, type KeyboardEvent } from 'react';
import { cn } from '@/lib/cn';
import { HOME_SHELVES, type HomeShelf } from '../utils/list-params';

export const shelfLabels: Record<HomeShelf, string> = { in_progress: 'En curso', favorites: 'Favoritos', completed: 'Completados' };

/** «Mi formación»'s tabs; arrow keys, Home and End move between them. */
export function ShelfTabs({ value, onChange, panelId }: { value: HomeShelf; onChange: (s: HomeShelf) => void; panelId: string }) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (e: KeyboardEvent, index: number) => {
    const n = HOME_SHELVES.length;
    const next =
      e.key === 'ArrowRight'
        ? (index + 1) % n
        : e.key === 'ArrowLeft'
          ? (index - 1 + n) % n
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? n - 1
              : -1;
    if (next < 0) return;
    e.preventDefault();
    refs.current[next]?.focus();
    onChange(HOME_SHELVES[next]!);
  };
  return (
    <div role="tablist" aria-label="Mi formación" className="-mx-4 flex gap-1 overflow-x-auto border-b px-4 sm:mx-0 sm:px-0">
      {HOME_SHELVES.map((shelf, i) => {
        const selected = shelf === value;
        return (
          <button
            key={shelf}
            ref={(el) => {
              refs.current[i] = el;
            }}
            id={`shelf-${shelf}`}
            type="button"
            role="tab"
            aria-selected={selected}
            aria-controls={panelId}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(shelf)}
            onKeyDown={(e) => onKeyDown(e, i)}
            className={cn(
              '-mb-px flex h-10 shrink-0 items-center border-b-2 px-3 text-sm font-medium transition-colors',
              selected ? 'border-primary text-foreground' : 'border-transparent text-muted-foreground hover:text-foreground',
            )}
          >
            {shelfLabels[shelf]}
          </button>
        );
      })}
    </div>
  );
}
