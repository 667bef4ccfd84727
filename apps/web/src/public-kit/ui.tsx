/**
 * The few pieces the small public bundles — the booking pages and the patient's companion — are made of,
 * in Diván's look (src/index.css's theme), without the app's Radix-based kit (decision 0021): a button, a
 * link, an alert read out when it appears, a skeleton, a heading that takes focus when a page opens, an
 * initial. Each bundle's ui.tsx adds its own pieces to these.
 */
import { useEffect, useRef, type ComponentProps, type MouseEvent, type ReactNode } from 'react';
import { navigate } from './nav';

export const cx = (...names: (string | false | null | undefined)[]) => names.filter(Boolean).join(' ');

const BUTTON = {
  primary: 'bg-primary text-primary-foreground shadow-sm hover:bg-primary-hover',
  outline: 'border border-input bg-card hover:bg-muted',
  ghost: 'hover:bg-muted',
  danger: 'bg-destructive text-destructive-foreground hover:bg-destructive/90',
};
const buttonClass = (variant: keyof typeof BUTTON) =>
  cx(
    'inline-flex min-h-11 cursor-pointer items-center justify-center gap-2 rounded-md px-4 text-[0.9375rem] font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:pointer-events-none disabled:opacity-55',
    BUTTON[variant],
  );

export function Button({
  variant = 'primary',
  loading,
  className,
  children,
  disabled,
  type = 'button',
  ...props
}: ComponentProps<'button'> & { variant?: keyof typeof BUTTON; loading?: boolean }) {
  return (
    <button
      type={type}
      className={cx(buttonClass(variant), className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...props}
    >
      {loading ? <span aria-hidden className="size-4 animate-spin rounded-full border-2 border-current border-r-transparent" /> : null}
      {children}
    </button>
  );
}

/** A link to another page of the same bundle, followed without reloading (new tab and modifiers work as usual). */
export function Link({
  href,
  variant,
  className,
  children,
  ...props
}: ComponentProps<'a'> & { href: string; variant?: keyof typeof BUTTON }) {
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(href);
  };
  return (
    <a
      href={href}
      onClick={onClick}
      className={cx(variant ? buttonClass(variant) : 'font-medium text-primary underline-offset-4 hover:underline', className)}
      {...props}
    >
      {children}
    </a>
  );
}

/** An error or a notice, announced by screen readers as it appears. */
export function Alert({
  tone = 'error',
  children,
  className,
  testId,
}: {
  tone?: 'error' | 'info' | 'warning';
  children: ReactNode;
  className?: string;
  testId?: string;
}) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      data-testid={testId}
      className={cx(
        'rounded-lg border px-4 py-3 text-[0.9375rem] leading-relaxed',
        tone === 'error' && 'border-destructive/30 bg-destructive/5 text-destructive',
        tone === 'info' && 'border-primary/20 bg-accent text-accent-foreground',
        tone === 'warning' && 'border-transparent bg-warning-bg text-warning-fg',
        className,
      )}
    >
      {children}
    </div>
  );
}

/** The input's side of a field's error: marked invalid and described by the message (FieldAlert) while there is one. */
export const invalidField = (errorId: string, error: string | null) => ({
  'aria-invalid': !!error,
  'aria-describedby': error ? errorId : undefined,
});

/** A field's error under it, read out as it appears. */
export function FieldAlert({ id, error }: { id: string; error: string | null }) {
  return error ? (
    <p id={id} role="alert" className="text-[0.8125rem] font-medium text-destructive">
      {error}
    </p>
  ) : null;
}

export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden className={cx('animate-pulse rounded-md bg-muted', className)} />;
}

export const h1Class = 'font-display text-[1.625rem] font-semibold leading-tight tracking-tight outline-none sm:text-[2rem]';
export const h2Class = 'font-display text-xl font-semibold tracking-tight outline-none';

/** A heading that takes focus when it appears (a new page or step), so a screen reader starts there. */
export function FocusHeading({
  level = 1,
  children,
  className,
  focus = true,
  id,
}: {
  level?: 1 | 2;
  children: ReactNode;
  className?: string;
  focus?: boolean;
  id?: string;
}) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus]);
  const Tag = level === 1 ? 'h1' : 'h2';
  return (
    <Tag ref={ref} id={id} tabIndex={-1} className={cx(level === 1 ? h1Class : h2Class, className)}>
      {children}
    </Tag>
  );
}

/** A read that failed: what happened and «Reintentar». */
export function ErrorState({ title = 'No se ha podido cargar', message, retry }: { title?: string; message: string; retry?: () => void }) {
  return (
    <section className="grid gap-4 py-6" data-testid="error-state">
      <span aria-hidden className="grid size-12 place-items-center rounded-full bg-destructive/10 text-2xl font-semibold text-destructive">
        !
      </span>
      <FocusHeading className="text-[1.5rem]">{title}</FocusHeading>
      <p role="alert" className="text-[0.9375rem] text-muted-foreground">
        {message}
      </p>
      {retry ? (
        <div>
          <Button onClick={retry}>Reintentar</Button>
        </div>
      ) : null}
    </section>
  );
}

/** The workspace's initial, when it has no logo. */
export function Initial({ name, className }: { name: string; className?: string }) {
  return (
    <span
      aria-hidden
      className={cx('grid shrink-0 place-items-center rounded-full bg-accent font-display font-semibold text-accent-foreground', className)}
    >
      {name.trim().charAt(0).toUpperCase()}
    </span>
  );
}
