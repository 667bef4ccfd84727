import type { ReactNode } from 'react';

/** Title of a workspace settings page, naming the workspace it applies to. */
export function PageHeading({
  title,
  workspace,
  children,
  actions,
}: {
  title: string;
  workspace: string;
  children?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-3">
      <div className="grid gap-1">
        <p className="text-[0.8125rem] font-medium text-muted-foreground">{workspace}</p>
        <h2 className="font-display text-2xl font-semibold tracking-tight">{title}</h2>
        {children ? <p className="max-w-prose text-sm text-muted-foreground">{children}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}
