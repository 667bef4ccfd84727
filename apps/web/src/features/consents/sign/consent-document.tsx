import { useMemo } from 'react';
import type { PublicConsent } from '@divan/core';
import { sanitizeHistoryHtml } from '@/components/rich-text/safe-html';
import '@/components/rich-text/rich-text.css';
import { cn } from '@/lib/cn';

type Checks = {
  checked: number[];
  onToggle: (index: number, on: boolean) => void;
  /** The message at each section's box ('checkboxes.2' → …). */
  problemAt: (path: string) => string | undefined;
};

/**
 * The document as sent: each section (its HTML kept to the server's allow-list, and sanitised here
 * again as the template preview does) with its box to tick, then the therapist's signature. Without
 * `checks` (already signed) the boxes are not shown.
 */
export function ConsentDocument({ consent, checks }: { consent: PublicConsent; checks?: Checks }) {
  const bodies = useMemo(() => consent.sections.map((s) => sanitizeHistoryHtml(s.body)), [consent.sections]);
  return (
    <article
      aria-label={consent.documentTitle}
      className="grid gap-6 rounded-xl border bg-card px-4 py-5 shadow-xs sm:px-7 sm:py-7"
      data-testid="consent-document"
    >
      {consent.sections.map((s, i) => (
        <section key={s.index} className="grid gap-2.5" aria-label={s.title || `Sección ${i + 1}`}>
          {s.title ? <h3 className="text-base font-semibold leading-snug">{s.title}</h3> : null}
          {bodies[i] ? (
            <div className="rich-text text-[0.9375rem] text-card-foreground" dangerouslySetInnerHTML={{ __html: bodies[i] }} />
          ) : null}
          {s.checkbox && checks ? (
            <SectionCheckbox index={i} label={s.checkbox.label} required={s.checkbox.required} checks={checks} />
          ) : null}
        </section>
      ))}
      {consent.therapistSignature ? (
        <figure className="grid justify-items-start gap-1.5 border-t pt-5">
          <img
            src={consent.therapistSignature.image}
            alt={`Firma de ${consent.therapistSignature.name}`}
            className="h-20 max-w-64 rounded-md bg-white object-contain object-left px-2 py-1"
          />
          <figcaption className="text-[0.8125rem] text-muted-foreground">
            Firmado por <span className="font-medium text-foreground">{consent.therapistSignature.name}</span>, terapeuta
          </figcaption>
        </figure>
      ) : null}
    </article>
  );
}

function SectionCheckbox({ index, label, required, checks }: { index: number; label: string; required: boolean; checks: Checks }) {
  const id = `sign-check-${index}`;
  const error = checks.problemAt(`checkboxes.${index}`);
  const on = checks.checked.includes(index);
  return (
    <div className="grid gap-1.5">
      <label
        htmlFor={id}
        className={cn(
          'flex cursor-pointer items-start gap-3 rounded-lg border px-3.5 py-3 text-[0.9375rem] leading-snug transition-colors',
          on ? 'border-primary/50 bg-accent' : 'bg-background hover:bg-muted/60',
          error && 'border-destructive bg-destructive/5',
        )}
      >
        <input
          id={id}
          type="checkbox"
          checked={on}
          onChange={(e) => checks.onToggle(index, e.target.checked)}
          aria-required={required || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-message` : undefined}
          className="mt-0.5 size-5 shrink-0 cursor-pointer accent-[var(--color-primary)]"
        />
        <span className="grid gap-1">
          <span>{label}</span>
          <span className={cn('text-[0.8125rem]', required ? 'font-medium text-foreground/80' : 'text-muted-foreground')}>
            {required ? 'Obligatoria para firmar' : 'Opcional'}
          </span>
        </span>
      </label>
      {error ? (
        <p id={`${id}-message`} role="alert" className="text-[0.8125rem] font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
