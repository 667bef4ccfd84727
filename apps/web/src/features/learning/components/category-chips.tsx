import { LEARNING_CATEGORIES, type LearningCategory } from '@divan/core';
import { cn } from '@/lib/cn';
import { categoryLabel } from '../utils/format';

const chip = (on: boolean) =>
  cn(
    'h-8 shrink-0 rounded-full border px-3 text-[0.8125rem] font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
    on ? 'border-primary bg-accent text-accent-foreground' : 'bg-card text-muted-foreground hover:bg-muted hover:text-foreground',
  );

/** «Todas» and the library's three categories, as toggle buttons (one pressed at a time). */
export function CategoryChips({ value, onChange }: { value: LearningCategory | null; onChange: (c: LearningCategory | null) => void }) {
  return (
    <div role="group" aria-label="Categoría" className="-mx-4 flex gap-2 overflow-x-auto px-4 pb-1 sm:mx-0 sm:flex-wrap sm:px-0">
      <button type="button" aria-pressed={value === null} className={chip(value === null)} onClick={() => onChange(null)}>
        Todas las categorías
      </button>
      {LEARNING_CATEGORIES.map((c) => (
        <button key={c} type="button" aria-pressed={value === c} className={chip(value === c)} onClick={() => onChange(c)}>
          {categoryLabel(c)}
        </button>
      ))}
    </div>
  );
}
