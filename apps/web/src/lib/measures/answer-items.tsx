import type { Measure } from '@divan/core/rules';
import { cn } from '../cn';

/**
 * A measure's items, each a group of native radio buttons (arrow keys move within an item, Tab to the
 * next): used by the patient's page and by the therapist in session. `missing` marks the unanswered
 * items after a refused send.
 */
export function AnswerItems({
  measure,
  answers,
  onAnswer,
  missing,
  idPrefix,
}: {
  measure: Measure;
  answers: (number | null)[];
  onAnswer: (index: number, value: number) => void;
  missing: Set<number>;
  idPrefix: string;
}) {
  return (
    <ol className="grid gap-4">
      {measure.items.map((item, i) => {
        const unanswered = missing.has(i);
        return (
          <li key={item.number}>
            <fieldset
              className={cn('grid gap-2 rounded-lg border bg-card p-4', unanswered && 'border-destructive')}
              aria-invalid={unanswered || undefined}
              aria-describedby={unanswered ? `${idPrefix}-missing-${i}` : undefined}
              data-testid={`item-${item.number}`}
            >
              <legend className="float-left mb-1 w-full text-[0.9375rem] font-medium">
                <span className="text-muted-foreground">{item.number}.</span> {item.text}
              </legend>
              <div className="grid gap-1.5 sm:grid-cols-2">
                {measure.options.map((o) => (
                  <label
                    key={o.value}
                    className="flex min-h-11 cursor-pointer items-center gap-3 rounded-md border px-3 py-2 text-sm has-[:checked]:border-primary has-[:checked]:bg-accent has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring"
                  >
                    <input
                      type="radio"
                      name={`${idPrefix}-item-${item.number}`}
                      value={o.value}
                      checked={answers[i] === o.value}
                      onChange={() => onAnswer(i, o.value)}
                      className="size-4 accent-[var(--color-primary)]"
                    />
                    {o.label}
                  </label>
                ))}
              </div>
              {unanswered ? (
                <p id={`${idPrefix}-missing-${i}`} className="text-sm text-destructive">
                  Responde esta pregunta
                </p>
              ) : null}
            </fieldset>
          </li>
        );
      })}
    </ol>
  );
}

/** The licence line every instrument shows (CORE's copyright line verbatim). */
export function MeasureCopyright({ measure }: { measure: Measure }) {
  return <p className="text-xs text-muted-foreground">{measure.copyright}</p>;
}
