import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { X } from 'lucide-react';
import { DOCUMENT_TAG_MAX, DOCUMENT_TAGS_PER_DOCUMENT, normalizeText } from '@divan/core';
import { inputBase } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import { useDocumentTags } from '../api/documents-api';

type Props = { wid: string; value: string[]; onChange: (tags: string[]) => void; labelledBy: string };

function useDebounced(value: string, ms: number) {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

/** Tags as chips; suggestions come from the tags already used anywhere in the workspace. */
export function TagInput({ wid, value, onChange, labelledBy }: Props) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const listId = useId();
  const q = useDebounced(text.trim(), 200);
  const tags = useDocumentTags(wid, q);
  const taken = new Set(value.map(normalizeText));
  const suggestions = (tags.data ?? []).filter((t) => !taken.has(normalizeText(t.name))).slice(0, 8);
  const full = value.length >= DOCUMENT_TAGS_PER_DOCUMENT;

  const add = (raw: string) => {
    const tag = raw.trim().replace(/\s+/g, ' ').slice(0, DOCUMENT_TAG_MAX);
    setText('');
    setActive(0);
    if (!tag || taken.has(normalizeText(tag)) || full) return;
    // Reuse the workspace's spelling ("Informe", not "informe") when it is the same tag.
    const existing = (tags.data ?? []).find((t) => normalizeText(t.name) === normalizeText(tag));
    onChange([...value, existing?.name ?? tag]);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' && suggestions.length) {
      e.preventDefault();
      setOpen(true);
      setActive((a) => (a + 1) % suggestions.length);
    } else if (e.key === 'ArrowUp' && suggestions.length) {
      e.preventDefault();
      setActive((a) => (a - 1 + suggestions.length) % suggestions.length);
    } else if (e.key === 'Enter' || e.key === ',') {
      e.preventDefault();
      const pick = open && suggestions[active];
      add(pick ? pick.name : text);
    } else if (e.key === 'Backspace' && !text && value.length) {
      onChange(value.slice(0, -1));
    } else if (e.key === 'Escape' && open) {
      e.stopPropagation();
      setOpen(false);
    }
  };

  const showList = open && suggestions.length > 0;
  return (
    <div className="relative">
      <div
        className={cn(inputBase, 'flex min-h-10 flex-wrap items-center gap-1.5 py-1.5 focus-within:outline-2 focus-within:outline-ring')}
      >
        {value.map((tag) => (
          <span
            key={tag}
            className="inline-flex h-7 items-center gap-1 rounded-full bg-accent pl-2.5 pr-1 text-[0.8125rem] text-accent-foreground"
          >
            {tag}
            <button
              type="button"
              onClick={() => onChange(value.filter((t) => t !== tag))}
              className="grid size-5 place-items-center rounded-full hover:bg-primary/15"
              aria-label={`Quitar etiqueta ${tag}`}
            >
              <X className="size-3.5" aria-hidden />
            </button>
          </span>
        ))}
        <input
          role="combobox"
          aria-labelledby={labelledBy}
          aria-expanded={showList}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={showList ? `${listId}-${active}` : undefined}
          value={text}
          disabled={full}
          maxLength={DOCUMENT_TAG_MAX}
          placeholder={full ? 'Máximo de etiquetas' : value.length ? 'Añadir otra…' : 'Escribe y pulsa Intro'}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
            setActive(0);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
          className="h-7 min-w-32 flex-1 bg-transparent text-[0.9375rem] outline-none placeholder:text-muted-foreground/80"
        />
      </div>
      <ul
        id={listId}
        role="listbox"
        aria-label="Etiquetas existentes"
        hidden={!showList}
        className="absolute inset-x-0 top-full z-10 mt-1 max-h-56 overflow-y-auto rounded-lg border bg-card p-1 shadow-lg"
      >
        {suggestions.map((t, i) => (
          <li
            key={t.id}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            onMouseDown={(e) => {
              e.preventDefault();
              add(t.name);
            }}
            onMouseEnter={() => setActive(i)}
            className={cn('cursor-pointer rounded-md px-2.5 py-1.5 text-sm', i === active && 'bg-muted')}
          >
            {t.name}
          </li>
        ))}
      </ul>
    </div>
  );
}
