import { useEffect, useRef, useState, type RefObject } from 'react';
import { Check, Copy } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';

type Copyable = { label: string; text: string; target: RefObject<HTMLElement | null> };
type Outcome = { kind: 'copied' | 'by-hand'; label: string } | null;

/** Selects what `el` shows: an input's value, or an element's text. */
function select(el: HTMLElement | null) {
  if (!el) return;
  el.focus();
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) return el.select();
  const range = document.createRange();
  range.selectNodeContents(el);
  const selection = window.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
}

/**
 * «Copiar código», «Copiar enlace»: the result said in a status region (read aloud): «Copiado», or, when the
 * browser refuses the clipboard, the text selected on screen and «Cópialo con Ctrl+C».
 */
export function CopyButtons({ items, className }: { items: Copyable[]; className?: string }) {
  const [outcome, setOutcome] = useState<Outcome>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async (item: Copyable) => {
    clearTimeout(timer.current);
    try {
      if (!navigator.clipboard) throw new Error('clipboard unavailable');
      await navigator.clipboard.writeText(item.text);
      setOutcome({ kind: 'copied', label: item.label });
      timer.current = setTimeout(() => setOutcome(null), 4000);
    } catch {
      select(item.target.current);
      setOutcome({ kind: 'by-hand', label: item.label });
    }
  };

  return (
    <div className={cn('flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center', className)}>
      <div className="flex flex-col gap-2 sm:flex-row">
        {items.map((item) => (
          <Button key={item.label} type="button" variant="outline" onClick={() => void copy(item)}>
            <Copy aria-hidden />
            {item.label}
          </Button>
        ))}
      </div>
      <p
        role="status"
        className={cn(
          'inline-flex min-h-5 items-center gap-1 text-[0.8125rem] font-medium sm:ml-1',
          outcome?.kind === 'copied' ? 'text-success' : 'text-foreground',
        )}
      >
        {outcome?.kind === 'copied' ? (
          <>
            <Check className="size-4" aria-hidden />
            Copiado
          </>
        ) : outcome?.kind === 'by-hand' ? (
          'Cópialo con Ctrl+C: ya está seleccionado.'
        ) : null}
      </p>
    </div>
  );
}
