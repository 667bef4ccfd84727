import type { ReactNode } from 'react';
import { LogoMark } from '@/components/ui/logo';

type Props = { code: string; title: string; children: ReactNode; actions: ReactNode };

/** Full-page message for 404/500/503: calm wording, the code small, one or two ways out. */
export function ErrorScreen({ code, title, children, actions }: Props) {
  return (
    <main className="grid min-h-dvh place-items-center bg-background px-6 py-16">
      <div className="grid max-w-md justify-items-center gap-6 text-center">
        <LogoMark className="size-10" />
        <p className="font-mono text-sm font-medium tracking-widest text-primary">{code}</p>
        <h1 className="font-display text-3xl font-semibold tracking-tight">{title}</h1>
        <p className="text-[0.9375rem] leading-relaxed text-muted-foreground">{children}</p>
        <div className="flex flex-wrap justify-center gap-3">{actions}</div>
      </div>
    </main>
  );
}
