import { useEffect, useState, type ReactNode } from 'react';
import { authApi } from './api';
import { hrefOf } from './router';
import { useSession } from './session';
import { Button, Link } from './ui';

/** Every companion page: Diván and the account on top, a calm column, safe areas of an installed app. */
export function PageFrame({ title, back, children }: { title: string; back?: { href: string; label: string }; children: ReactNode }) {
  const session = useSession();
  const [leaving, setLeaving] = useState(false);
  useEffect(() => {
    document.title = title === 'Diván' ? title : `${title} · Diván`;
  }, [title]);
  return (
    <div className="flex min-h-dvh flex-col bg-background pb-[env(safe-area-inset-bottom)] pt-[env(safe-area-inset-top)]">
      <header className="sticky top-0 z-10 border-b bg-card/90 backdrop-blur">
        <div className="mx-auto flex min-h-14 w-full max-w-3xl items-center gap-2 px-3 sm:px-6">
          {back ? (
            <Link
              href={back.href}
              className="-ml-1 inline-flex min-h-11 items-center gap-1 rounded-md px-2 text-[0.9375rem] font-medium text-primary hover:bg-muted"
              aria-label={back.label}
            >
              <span aria-hidden className="text-xl leading-none">
                ‹
              </span>{' '}
              <span className="hidden sm:inline">{back.label}</span>
            </Link>
          ) : null}
          <Link
            href={hrefOf()}
            className="inline-flex min-h-11 items-center gap-2 rounded-md px-1 font-display text-lg font-semibold tracking-tight text-foreground no-underline hover:no-underline"
          >
            <img src="/favicon.svg" alt="" className="size-7" />
            Diván
          </Link>
          {session ? (
            <div className="ml-auto flex min-w-0 items-center gap-2">
              <span className="hidden min-w-0 truncate text-sm text-muted-foreground sm:inline" data-testid="account-email">
                {session.profile.email}
              </span>
              <Button
                variant="ghost"
                className="px-3 text-sm"
                loading={leaving}
                onClick={() => {
                  setLeaving(true);
                  void authApi.logout().finally(() => setLeaving(false));
                }}
              >
                Salir
              </Button>
            </div>
          ) : null}
        </div>
      </header>
      <main className="mx-auto grid w-full max-w-3xl flex-1 content-start gap-5 px-4 pb-10 pt-5 sm:px-6 sm:pt-8">{children}</main>
    </div>
  );
}
