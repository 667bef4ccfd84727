import { useEffect, useRef, type ReactNode } from 'react';
import { CircleAlert, Clock, ShieldCheck } from 'lucide-react';
import type { PublicConsent } from '@divan/core';
import { CONSENT_SIGNER_ROLE_LABELS } from '@divan/core/consent-signing';
import { LogoMark } from '@/components/ui/logo';
import { cn } from '@/lib/cn';

/** The page around every state: who sends it on top, a calm column, and what keeps it safe below. */
export function PageFrame({ workspaceName, evidence, children }: { workspaceName: string | null; evidence: boolean; children: ReactNode }) {
  return (
    <div className="min-h-dvh bg-background">
      <header className="border-b bg-card/70">
        <div className="mx-auto flex min-h-14 w-full max-w-2xl items-center gap-3 px-4 sm:px-6">
          {workspaceName ? (
            <>
              <span
                aria-hidden
                className="grid size-8 shrink-0 place-items-center rounded-full bg-accent font-display text-base font-semibold text-accent-foreground"
              >
                {workspaceName.trim().charAt(0).toUpperCase()}
              </span>
              <span className="min-w-0 truncate font-medium" data-testid="workspace-name">
                {workspaceName}
              </span>
            </>
          ) : (
            <span className="font-display text-lg font-semibold tracking-tight">Firma de documentos</span>
          )}
        </div>
      </header>
      <main className="mx-auto grid w-full max-w-2xl gap-6 px-4 pb-12 pt-6 sm:px-6 sm:pt-10">{children}</main>
      <footer className="mx-auto grid w-full max-w-2xl gap-3 px-4 pb-10 text-[0.8125rem] text-muted-foreground sm:px-6">
        {evidence ? (
          <p className="flex items-start gap-2">
            <ShieldCheck className="mt-0.5 size-3.5 shrink-0" aria-hidden />
            Tu firma queda registrada con la fecha, la hora y el dispositivo desde el que firmas, y el documento firmado se sella para que
            no pueda cambiarse.
          </p>
        ) : null}
        <p className="flex items-center gap-2">
          <LogoMark className="size-4" /> Firma electrónica con Diván
        </p>
      </footer>
    </div>
  );
}

export const h1Class = 'font-display text-[1.625rem] font-semibold leading-tight tracking-tight sm:text-[2rem]';

/** An end of the road (signed, already signed), a wait (another signs first) or a link that does not open: an icon, a heading that takes focus, and what to know. */
export function StatusMessage({
  tone,
  title,
  children,
  actions,
}: {
  tone: 'done' | 'waiting' | 'problem';
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, [title]);
  return (
    <section className="grid gap-4" role={tone === 'problem' ? undefined : 'status'} aria-labelledby="status-title">
      <span
        className={cn(
          'grid size-14 place-items-center rounded-full',
          tone === 'done'
            ? 'bg-success/10 text-success'
            : tone === 'waiting'
              ? 'bg-muted text-muted-foreground'
              : 'bg-destructive/10 text-destructive',
        )}
      >
        {tone === 'waiting' ? (
          <Clock className="size-7" aria-hidden />
        ) : tone === 'done' ? (
          <svg
            viewBox="0 0 24 24"
            className="size-7"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
            aria-hidden
          >
            <circle cx="12" cy="12" r="10" />
            <path d="m9 12 2 2 4-4" />
          </svg>
        ) : (
          <CircleAlert className="size-7" aria-hidden />
        )}
      </span>
      <h1 id="status-title" ref={heading} tabIndex={-1} className={cn(h1Class, 'outline-none')}>
        {title}
      </h1>
      {children ? <div className="grid gap-3 text-[0.9375rem] leading-relaxed text-muted-foreground">{children}</div> : null}
      {actions ? <div className="flex flex-wrap gap-3">{actions}</div> : null}
    </section>
  );
}

/** Everyone who signs: this signer first, then the others and whether they have signed. */
export function Signers({ consent, signedNow = false }: { consent: PublicConsent; signedNow?: boolean }) {
  const youSigned = signedNow || !!consent.signer.signedAt;
  const rows = [
    { key: 'you', name: consent.signer.name, role: consent.signer.role, signed: youSigned, you: true },
    ...consent.others.map((o, i) => ({ key: `${o.role}-${i}`, ...o, you: false })),
  ];
  return (
    <section aria-labelledby="signers-title" className="grid gap-2.5 rounded-xl border bg-card p-4 shadow-xs">
      <h2 id="signers-title" className="text-sm font-semibold">
        {rows.length > 1 ? 'Quién firma' : 'Quién firma este documento'}
      </h2>
      <ul className="grid gap-3" data-testid="signers">
        {rows.map((r) => (
          <li key={r.key} className="flex items-center justify-between gap-3 text-sm">
            <span className="grid min-w-0">
              <span className="truncate font-medium">
                {r.name}
                {r.you ? <span className="font-normal text-muted-foreground"> (tú)</span> : null}
              </span>
              <span className="text-[0.8125rem] text-muted-foreground">{CONSENT_SIGNER_ROLE_LABELS[r.role]}</span>
            </span>
            <span
              className={cn(
                'inline-flex shrink-0 items-center gap-1.5 rounded-full px-2.5 py-0.5 text-[0.8125rem] font-medium',
                r.signed ? 'bg-success/10 text-success' : 'bg-muted text-muted-foreground',
              )}
            >
              <span aria-hidden className={cn('size-1.5 rounded-full', r.signed ? 'bg-success' : 'bg-muted-foreground/60')} />
              {r.signed ? 'Firmado' : 'Pendiente'}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** «Falta que firme Jorge Gómez (segundo tutor/a)», for those still to sign after this signer. */
export function stillToSign(consent: PublicConsent): string | null {
  const pending = consent.others.filter((o) => !o.signed).map((o) => `${o.name} (${CONSENT_SIGNER_ROLE_LABELS[o.role].toLowerCase()})`);
  if (!pending.length) return null;
  const list = pending.length === 1 ? pending[0] : `${pending.slice(0, -1).join(', ')} y ${pending.at(-1)}`;
  return `${pending.length === 1 ? 'Falta que firme' : 'Falta que firmen'} ${list}.`;
}
