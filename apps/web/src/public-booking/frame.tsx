import { useEffect, type ReactNode } from 'react';
import { Initial } from './ui';

type Workspace = { name: string; logoUrl?: string | null } | null;

/** Every booking page: who offers it on top, a calm column, and whose booking system it is below. */
export function PageFrame({ workspace, title, children }: { workspace: Workspace; title: string; children: ReactNode }) {
  useEffect(() => {
    document.title = workspace ? `${title} · ${workspace.name}` : title;
  }, [title, workspace]);
  return (
    <div className="flex min-h-dvh flex-col bg-background [.embedded_&]:min-h-0">
      <header className="border-b bg-card/70">
        <div className="mx-auto flex min-h-14 w-full max-w-3xl items-center gap-3 px-4 sm:px-6">
          {workspace ? (
            <>
              {workspace.logoUrl ? (
                <img src={workspace.logoUrl} alt="" className="size-8 shrink-0 rounded-md object-cover" />
              ) : (
                <Initial name={workspace.name} className="size-8 text-base" />
              )}
              <span className="min-w-0 truncate font-medium" data-testid="workspace-name">
                {workspace.name}
              </span>
            </>
          ) : (
            <span className="font-display text-lg font-semibold tracking-tight">Reserva online</span>
          )}
        </div>
      </header>
      <main className="mx-auto grid w-full max-w-3xl flex-1 content-start gap-6 px-4 pb-10 pt-6 sm:px-6 sm:pt-8">{children}</main>
      <footer className="mx-auto w-full max-w-3xl px-4 pb-8 text-[0.8125rem] text-muted-foreground sm:px-6">
        Reservas online con <span className="font-display font-semibold text-foreground">Diván</span>
      </footer>
    </div>
  );
}
