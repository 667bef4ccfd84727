import { cloneElement, isValidElement, useId, type ReactElement, type ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { Label } from './label';

type FieldProps = {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
  className?: string;
  /** Extra content on the label row, e.g. a "¿Has olvidado tu contraseña?" link. */
  aside?: ReactNode;
  children: ReactElement<Record<string, unknown>>;
};

/** A label, one control and its message, wired for screen readers (id, aria-invalid, aria-describedby). */
export function Field({ label, error, hint, className, aside, children }: FieldProps) {
  const id = useId();
  const controlId = (isValidElement(children) && (children.props.id as string | undefined)) || id;
  const messageId = `${controlId}-message`;
  const hintId = `${controlId}-hint`;
  const describedBy = [error ? messageId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('grid content-start gap-1.5', className)}>
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor={controlId}>{label}</Label>
        {aside}
      </div>
      {cloneElement(children, { id: controlId, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint && !error ? (
        <p id={hintId} className="text-[0.8125rem] text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={messageId} role="alert" className="text-[0.8125rem] font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
