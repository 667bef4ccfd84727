import { CRISIS_LINE } from '@divan/core/rules';

/** Spain's crisis line, and nothing else automated (issue 32): shown to a patient whose answer is a risk one. */
export function CrisisLine() {
  return (
    <div role="alert" className="rounded-lg border border-primary/40 bg-accent p-4 text-[0.9375rem]" data-testid="crisis-line">
      <p>
        {CRISIS_LINE.text}{' '}
        <a className="font-semibold underline" href={`tel:${CRISIS_LINE.number}`}>
          Llamar al {CRISIS_LINE.number}
        </a>
      </p>
    </div>
  );
}
