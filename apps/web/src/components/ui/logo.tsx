import { cn } from '@/lib/cn';

/** The Diván mark: a stylised couch, drawn with currentColor so it follows the theme. */
export function LogoMark({ className = 'size-8' }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden>
      <rect width="32" height="32" rx="8" className="fill-primary" />
      <path d="M8 19.5c0-2.2 1.8-4 4-4h8c2.2 0 4 1.8 4 4V22H8z" className="fill-primary-foreground" />
      <path d="M6.5 15.5a2 2 0 0 1 2 2V23h-2zM25.5 15.5a2 2 0 0 0-2 2V23h2z" className="fill-primary-foreground" opacity=".8" />
      <rect x="10" y="10" width="12" height="5" rx="2.5" className="fill-primary-foreground" opacity=".6" />
    </svg>
  );
}

export function Logo({ className, showName = true }: { className?: string; showName?: boolean }) {
  return (
    <span className={cn('inline-flex items-center gap-2.5', className)}>
      <LogoMark />
      {showName ? <span className="font-display text-xl font-semibold tracking-tight">Diván</span> : null}
    </span>
  );
}
