import type { ReactNode } from 'react';

export function AuthHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="mb-7 grid gap-2">
      <h1 className="font-display text-[1.75rem] font-semibold leading-tight tracking-tight">{title}</h1>
      {children ? <p className="text-[0.9375rem] leading-relaxed text-muted-foreground">{children}</p> : null}
    </div>
  );
}
