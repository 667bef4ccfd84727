import { useEffect, useId, useRef, useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/cn';

type Outcome = 'copied' | 'by-hand' | null;

/**
 * A read-only text to share (the link, the code) and its «Copiar …» button. The result is said beside it
 * in a status region (read aloud by screen readers): «Copiado», or — when the browser refuses the
 * clipboard — the text is selected and «Cópialo con Ctrl+C».
 */
export function CopyField({
  label,
  value,
  copyLabel,
  hint,
  mono = false,
}: {
  label: string;
  value: string;
  copyLabel: string;
  hint?: string;
  mono?: boolean;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const say = (next: Outcome) => {
    clearTimeout(timer.current);
    setOutcome(next);
    // «Copiado» fades after a while; the by-hand instruction stays until the next try.
    if (next === 'copied') timer.current = setTimeout(() => setOutcome(null), 4000);
  };

  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('clipboard unavailable');
      await navigator.clipboard.writeText(value);
      say('copied');
    } catch {
      input.current?.focus();
      input.current?.select();
      say('by-hand');
    }
  };

  return (
    <div className="grid min-w-0 gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          ref={input}
          id={id}
          readOnly
          value={value}
          aria-describedby={hint ? `${id}-hint` : undefined}
          onFocus={(e) => e.currentTarget.select()}
          // Read-only, but not disabled-looking: this is the text to share (Input greys read-only text).
          className={cn('min-w-0 read-only:text-foreground! sm:flex-1', mono && 'font-mono font-semibold tracking-widest')}
        />
        <Button type="button" variant="outline" onClick={() => void copy()} className="sm:w-40">
          <Copy aria-hidden />
          {copyLabel}
        </Button>
      </div>
      <div className="flex min-h-5 flex-wrap items-start justify-between gap-x-3 gap-y-1 text-[0.8125rem]">
        {hint ? (
          <p id={`${id}-hint`} className="text-muted-foreground">
            {hint}
          </p>
        ) : null}
        <p
          role="status"
          className={cn('inline-flex items-center gap-1 font-medium', outcome === 'copied' ? 'text-success' : 'text-foreground')}
        >
          {outcome === 'copied' ? (
            <>
              <Check className="size-4" aria-hidden />
              Copiado
            </>
          ) : outcome === 'by-hand' ? (
            'Cópialo con Ctrl+C: ya está seleccionado.'
          ) : null}
        </p>
      </div>
    </div>
  );
}
