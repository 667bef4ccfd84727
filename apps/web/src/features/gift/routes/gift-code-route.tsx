import { useId, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { CalendarX2, CircleAlert, Gift, PartyPopper, RotateCw, SearchX, TicketCheck } from 'lucide-react';
import type { GiftView, RedeemGift, Workspace } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Logo } from '@/components/ui/logo';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { isApiError } from '@/lib/api-client';
import { messageOf } from '@/lib/error-message';
import { formatCurrency, formatDate } from '@/lib/format';
import { queryClient } from '@/lib/query-client';
import { usePageTitle } from '@/lib/use-page-title';
import { useAuthStore } from '@/stores/auth-store';
import { isRealWorkspace, useCurrentWorkspace, useWorkspacesStore } from '@/stores/workspaces-store';
import { useGiftView, useGiftWorkspaces, useRedeemGift } from '../api/gift-api';
import { formatGiftCode, monthsLabel, normalizeGiftCode } from '../utils/gift-code';

/**
 * /gift/:code (spec §2 `/gift/{code}`): the page of a gift's link, signed out or in. What the gift holds and
 * who gives it; signed out, the way to an account (and back here); signed in, «Canjear en este espacio» for
 * a workspace the person owns.
 */
export function GiftCodeRoute() {
  return (
    <QueryClientProvider client={queryClient}>
      <GiftCode />
    </QueryClientProvider>
  );
}

export function GiftCode() {
  usePageTitle('Regalo de Diván');
  const { code: raw = '' } = useParams();
  const code = normalizeGiftCode(raw);
  const hydrated = useAuthStore((s) => s.hydrated);
  const signedIn = useAuthStore((s) => s.loggedIn);
  const gift = useGiftView(code);
  const [redeemed, setRedeemed] = useState<{ result: RedeemGift; workspace: string } | null>(null);

  let body: ReactNode;
  if (redeemed) body = <Redeemed result={redeemed.result} workspace={redeemed.workspace} />;
  else if (gift.isPending || !hydrated)
    body = (
      <div className="grid justify-items-center gap-3 py-16">
        <Spinner className="[&_svg]:size-8" label="Cargando el regalo…" />
        <p className="text-sm text-muted-foreground">Cargando el regalo…</p>
      </div>
    );
  else if (gift.isError)
    body =
      isApiError(gift.error) && gift.error.code === 'gift_not_found' ? (
        <Outcome icon={<SearchX aria-hidden />} tone="warning" title="Ese código de regalo no existe">
          <p>
            Revisa el enlace o el código: quizá falta algún carácter. Si te lo han pasado a mano, pide a quien te lo regala que te envíe el
            enlace.
          </p>
        </Outcome>
      ) : (
        <Outcome icon={<CircleAlert aria-hidden />} tone="error" title="No hemos podido cargar el regalo">
          <p role="alert">{messageOf(gift.error)}</p>
          <div>
            <Button variant="outline" onClick={() => void gift.refetch()}>
              <RotateCw aria-hidden /> Reintentar
            </Button>
          </div>
        </Outcome>
      );
  else if (gift.data.status === 'redeemed')
    body = (
      <Outcome icon={<TicketCheck aria-hidden />} title="Este regalo ya se ha canjeado">
        <p>Cada código vale una sola vez, y este ya se usó. Si no fuiste tú, pregúntale a {gift.data.fromName}.</p>
      </Outcome>
    );
  else if (gift.data.status === 'expired')
    body = (
      <Outcome icon={<CalendarX2 aria-hidden />} tone="warning" title="Este regalo ha caducado">
        <p>Se podía canjear hasta el {formatDate(gift.data.expiresAt)}: un año desde su compra.</p>
      </Outcome>
    );
  else
    body = (
      <Available gift={gift.data} code={code}>
        {signedIn ? (
          <RedeemPanel gift={gift.data} code={code} onRedeemed={(result, workspace) => setRedeemed({ result, workspace })} />
        ) : (
          <SignedOut code={code} />
        )}
      </Available>
    );

  return (
    <div className="flex min-h-dvh flex-col">
      <header className="flex h-16 items-center justify-between gap-3 px-4 sm:px-8">
        <Link to="/" aria-label="Diván: ir al inicio" className="rounded-lg">
          <Logo />
        </Link>
        {hydrated && signedIn ? (
          <Link to="/" className="text-sm font-medium text-primary underline-offset-4 hover:underline">
            Ir a Diván
          </Link>
        ) : null}
      </header>
      <main id="main" className="flex flex-1 justify-center px-4 pb-12 pt-2 sm:px-8 sm:pt-8">
        <div className="w-full max-w-lg">{body}</div>
      </main>
    </div>
  );
}

function Outcome({
  icon,
  tone = 'accent',
  title,
  children,
}: {
  icon: ReactNode;
  tone?: 'accent' | 'warning' | 'error';
  title: string;
  children?: ReactNode;
}) {
  const tones = {
    accent: 'bg-accent text-accent-foreground',
    warning: 'bg-warning-bg text-warning-fg',
    error: 'bg-destructive/10 text-destructive',
  };
  return (
    <div className="grid justify-items-start gap-4 pt-6">
      <span className={`grid size-12 place-items-center rounded-2xl [&_svg]:size-6 ${tones[tone]}`}>{icon}</span>
      <h1 className="font-display text-3xl font-semibold tracking-tight">{title}</h1>
      {children ? <div className="grid gap-3 text-[0.9375rem] leading-relaxed text-muted-foreground">{children}</div> : null}
      <Button asChild variant="link" size="none">
        <Link to="/">Ir a Diván</Link>
      </Button>
    </div>
  );
}

function Available({ gift, code, children }: { gift: GiftView; code: string; children: ReactNode }) {
  return (
    <article aria-labelledby="gift-title" className="overflow-hidden rounded-2xl border bg-card shadow-sm">
      <div className="grid justify-items-center gap-3 bg-accent px-6 pb-6 pt-8 text-center text-accent-foreground">
        <span className="grid size-14 place-items-center rounded-full bg-card text-primary shadow-xs">
          <Gift className="size-7" aria-hidden />
        </span>
        {gift.recipientName ? <p className="text-sm font-medium">Para {gift.recipientName}</p> : null}
        <h1 id="gift-title" className="font-display text-2xl font-semibold leading-tight tracking-tight text-foreground sm:text-3xl">
          {gift.fromName} te regala {monthsLabel(gift.months)} de Diván Premium
        </h1>
        {gift.message ? (
          <blockquote className="max-w-prose whitespace-pre-line text-[0.9375rem] italic leading-relaxed text-foreground/80">
            «{gift.message}»
          </blockquote>
        ) : null}
      </div>
      <div className="grid gap-5 p-6">
        <ul className="grid gap-1.5 text-sm leading-relaxed text-muted-foreground">
          <li>
            Premium completo durante {monthsLabel(gift.months)}: pacientes ilimitados, facturas por lotes, reserva online y dos
            recordatorios por sesión. Sin tarjeta.
          </li>
          <li>
            Puedes canjearlo hasta el <span className="font-medium text-foreground">{formatDate(gift.expiresAt)}</span>. Si tu espacio ya
            paga un plan, lo que vale se descuenta de tu próxima factura.
          </li>
        </ul>
        <p className="text-[0.8125rem] text-muted-foreground">
          Código: <span className="font-mono font-medium tracking-wide text-foreground">{formatGiftCode(code)}</span>
        </p>
        {children}
      </div>
    </article>
  );
}

function SignedOut({ code }: { code: string }) {
  const back = encodeURIComponent(`/gift/${code}`);
  return (
    <div className="grid gap-3 border-t pt-5">
      <p className="text-sm">Para canjearlo necesitas una cuenta de Diván: es gratis y tu espacio se crea al registrarte.</p>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button asChild size="lg" className="sm:flex-1">
          <Link to={`/sign-up?redirect=${back}`}>Crear cuenta y canjear</Link>
        </Button>
        <Button asChild size="lg" variant="outline" className="sm:flex-1">
          <Link to={`/sign-in?redirect=${back}`}>Ya tengo cuenta</Link>
        </Button>
      </div>
    </div>
  );
}

/**
 * What redeeming does on this workspace, as the server will do it: months of trial without a plan; after
 * the paid period of a plan whose renewal is off; a credit on the next invoice of one that renews; Team
 * is refused (billed as agreed with Diván's team). A plan whose last charge is unpaid is refused too, with
 * the server's message (the workspace does not say it).
 */
function redeemHint(w: Workspace, months: number): string {
  const { plan } = w;
  if (plan.id === 'team') return 'El plan Team de este espacio lo gestiona el equipo de Diván: canjea el regalo en otro espacio tuyo.';
  if (plan.id && plan.renovationEnabled)
    return `Este espacio ya paga un plan: lo que vale el regalo (${monthsLabel(months)} de Premium) se descontará de su próxima factura, antes de IVA.`;
  if (plan.id && plan.periodEnd && new Date(plan.periodEnd) > new Date())
    return `El plan de este espacio termina el ${formatDate(plan.periodEnd)} sin renovarse: después tendrá ${monthsLabel(months)} de Premium como prueba gratis.`;
  return months === 1
    ? 'El mes se suma a la prueba gratis del espacio, con todo Premium.'
    : `Los ${monthsLabel(months)} se suman a la prueba gratis del espacio, con todo Premium.`;
}

function RedeemPanel({
  gift,
  code,
  onRedeemed,
}: {
  gift: GiftView;
  code: string;
  onRedeemed: (result: RedeemGift, workspace: string) => void;
}) {
  const list = useGiftWorkspaces(true);
  const current = useCurrentWorkspace();
  const workspaces = useWorkspacesStore((s) => s.workspaces);
  const owned = workspaces.filter((w) => w.isOwner);
  const [chosen, setChosen] = useState<string | null>(null);
  const target = owned.find((w) => w.id === chosen) ?? (current.isOwner ? current : owned[0]) ?? null;
  const selectId = useId();

  if (!workspaces.length || !isRealWorkspace(current.id))
    return list.isError ? (
      <Alert variant="error" className="flex flex-wrap items-center justify-between gap-3">
        <span>No se pudieron cargar tus espacios. {messageOf(list.error)}</span>
        <Button variant="outline" size="sm" onClick={() => void list.refetch()}>
          <RotateCw aria-hidden /> Reintentar
        </Button>
      </Alert>
    ) : (
      <div className="grid place-items-center border-t pt-5">
        <Spinner label="Cargando tus espacios…" />
      </div>
    );

  return (
    <div className="grid gap-4 border-t pt-5">
      {!current.isOwner ? (
        <p className="text-sm leading-relaxed text-muted-foreground" data-testid="not-owner">
          Solo quien es titular de un espacio puede canjear un regalo: en «{current.name}» es {current.owner.firstName || 'otra persona'}.
          {owned.length ? ' Puedes canjearlo en un espacio tuyo:' : ''}
        </p>
      ) : null}
      {!target ? (
        <div className="grid gap-3">
          <p className="text-sm">No eres titular de ningún espacio. Crea el tuyo y vuelve a este enlace para canjear el regalo.</p>
          <div>
            <Button asChild variant="outline">
              <Link to="/workspaces/create">Crear un espacio</Link>
            </Button>
          </div>
        </div>
      ) : (
        <RedeemIn
          key={target.id}
          target={target}
          gift={gift}
          code={code}
          chooser={
            owned.length > 1 ? (
              <div className="grid gap-1.5">
                <Label htmlFor={selectId}>Espacio donde canjearlo</Label>
                <NativeSelect
                  id={selectId}
                  value={target.id}
                  onChange={(e) => setChosen(e.target.value)}
                  options={owned.map((w) => ({ value: w.id, label: w.name }))}
                />
              </div>
            ) : (
              <p className="text-sm">
                Se canjeará en tu espacio <span className="font-semibold">{target.name}</span>.
              </p>
            )
          }
          onRedeemed={onRedeemed}
        />
      )}
    </div>
  );
}

function RedeemIn({
  target,
  gift,
  code,
  chooser,
  onRedeemed,
}: {
  target: Workspace;
  gift: GiftView;
  code: string;
  chooser: ReactNode;
  onRedeemed: (result: RedeemGift, workspace: string) => void;
}) {
  const redeem = useRedeemGift(target.id);
  const [error, setError] = useState<string | null>(null);
  const redeemNow = async () => {
    setError(null);
    try {
      onRedeemed(await redeem.mutateAsync({ code }), target.name);
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <div className="grid gap-4">
      {chooser}
      <p className="text-[0.8125rem] leading-relaxed text-muted-foreground" data-testid="redeem-hint">
        {redeemHint(target, gift.months)}
      </p>
      {error ? <Alert variant="error">{error}</Alert> : null}
      <Button size="lg" loading={redeem.isPending} onClick={() => void redeemNow()}>
        Canjear en este espacio
      </Button>
    </div>
  );
}

/** What the redemption did: a credit off the next invoice, months of trial after the plan that ends, or more trial. */
function Redeemed({ result, workspace }: { result: RedeemGift; workspace: string }) {
  const where = <span className="font-medium text-foreground">{workspace}</span>;
  let title: string;
  let text: ReactNode;
  if (result.applied === 'credit') {
    title = `Listo: hemos descontado ${formatCurrency(result.creditCents ?? 0)} de tu próxima factura`;
    text = (
      <>
        Lo que vale el regalo, {monthsLabel(result.months)} de Diván Premium, irá en la próxima factura del plan de {where} como la línea
        «Tarjeta regalo», antes de IVA: el IVA se calcula sobre el resto. Si la factura es menor, lo que sobre queda a tu favor para las
        siguientes.
      </>
    );
  } else if (result.planEnd) {
    title = `Listo: tu prueba de Premium dura hasta el ${formatDate(result.freeTrialEnd)}`;
    text = (
      <>
        Tu plan de {where} sigue hasta el {formatDate(result.planEnd)}, sin renovarse; después tendrás {monthsLabel(result.months)} de Diván
        Premium como prueba gratis, sin tarjeta.
      </>
    );
  } else {
    title = `Listo: tienes Premium hasta el ${formatDate(result.freeTrialEnd)}`;
    text = (
      <>
        Hemos sumado {monthsLabel(result.months)} a la prueba gratis de {where}. Disfruta de Diván Premium.
      </>
    );
  }
  return (
    <div className="grid justify-items-start gap-4 pt-6" role="status">
      <span className="grid size-12 place-items-center rounded-2xl bg-accent text-accent-foreground [&_svg]:size-6">
        <PartyPopper aria-hidden />
      </span>
      <h1 className="font-display text-3xl font-semibold tracking-tight">{title}</h1>
      <p className="text-[0.9375rem] leading-relaxed text-muted-foreground">{text}</p>
      <Button asChild size="lg">
        <Link to="/">Ir a Diván</Link>
      </Button>
    </div>
  );
}

export { GiftCodeRoute as Component };
