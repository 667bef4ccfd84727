import { Fragment, useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { CircleAlert, Clock, Gift, MailCheck, RotateCw, TriangleAlert } from 'lucide-react';
import type { GiftPurchase } from '@divan/core';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Logo } from '@/components/ui/logo';
import { Spinner } from '@/components/ui/spinner';
import { messageOf } from '@/lib/error-message';
import { formatCurrency, formatDate } from '@/lib/format';
import { queryClient } from '@/lib/query-client';
import { usePageTitle } from '@/lib/use-page-title';
import { useCurrentWorkspaceId } from '@/stores/workspaces-store';
import { useGiftPurchase } from '../api/gift-api';
import { CopyButtons } from '../components/copy-buttons';
import { formatGiftCode, monthsLabel } from '../utils/gift-code';
import { forgetDraft, keptPurchaseOf } from '../utils/gift-storage';

/** How often the page asks whether the gift is paid, and for how long before it says it is taking a while. */
export const POLL_MS = 1000;
export const POLL_TIMEOUT_MS = 60_000;

/**
 * /gift/purchased?session_id=…&workspace=…: where Checkout sends the buyer after paying a gift. Outside
 * the shell, signed in. It waits for the webhook to have marked the gift paid, then shows its code — which
 * the server returns on that first read only, so the page keeps it (see useGiftPurchase).
 */
export function GiftPurchasedRoute() {
  return (
    <QueryClientProvider client={queryClient}>
      <Frame>
        <GiftPurchased />
      </Frame>
    </QueryClientProvider>
  );
}

function Frame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="flex h-16 items-center px-4 sm:px-8">
        <Link to="/" aria-label="Diván: ir al inicio" className="rounded-lg">
          <Logo />
        </Link>
      </header>
      <main id="main" className="flex flex-1 justify-center px-4 pb-12 pt-4 sm:px-8 sm:pt-10">
        <div className="w-full max-w-xl">{children}</div>
      </main>
    </div>
  );
}

function Heading({
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
    <div className="grid justify-items-start gap-4">
      <span className={`grid size-12 place-items-center rounded-2xl [&_svg]:size-6 ${tones[tone]}`}>{icon}</span>
      <div className="grid gap-2">
        <h1 className="font-display text-3xl font-semibold tracking-tight">{title}</h1>
        {children ? <div className="grid gap-2 text-[0.9375rem] leading-relaxed text-muted-foreground">{children}</div> : null}
      </div>
    </div>
  );
}

const BackToGift = ({
  variant = 'outline',
  children = 'Volver a Regalar Diván',
}: {
  variant?: 'outline' | 'default';
  children?: string;
}) => (
  <Button asChild variant={variant}>
    <Link to="/gift">{children}</Link>
  </Button>
);

/** The page's body; `pollMs` and `timeoutMs` are the constants above, shorter in tests. */
export function GiftPurchased({ pollMs = POLL_MS, timeoutMs = POLL_TIMEOUT_MS }: { pollMs?: number; timeoutMs?: number }) {
  usePageTitle('Tu regalo');
  const [params] = useSearchParams();
  const currentId = useCurrentWorkspaceId();
  const sessionId = params.get('session_id') ?? '';
  const wid = params.get('workspace') ?? currentId;
  // The code once shown: from this tab's storage (a reload), else as the first paid answer brings it.
  const [kept, setKept] = useState<GiftPurchase | null>(() => (sessionId ? keptPurchaseOf(sessionId) : null));

  // Each round of waiting lasts `timeoutMs`; «Volver a comprobar» starts another.
  const [round, setRound] = useState(0);
  const [spentRound, setSpentRound] = useState(-1);
  useEffect(() => {
    const timer = setTimeout(() => setSpentRound(round), timeoutMs);
    return () => clearTimeout(timer);
  }, [round, timeoutMs]);
  const timedOut = spentRound === round;

  const status = useGiftPurchase(wid, sessionId, { pollMs, polling: !timedOut, enabled: !kept });
  const data = status.data;
  useEffect(() => {
    if (!kept && data?.status === 'paid' && sessionId) {
      const stored = keptPurchaseOf(sessionId);
      if (stored) setKept(stored);
    }
  }, [data, kept, sessionId]);

  // Paid: the buy form's draft has served its purpose.
  const paid = !!kept || data?.status === 'paid';
  useEffect(() => {
    if (paid && wid) forgetDraft(wid);
  }, [paid, wid]);

  const retry = () => {
    setRound((r) => r + 1);
    void status.refetch();
  };

  if (!sessionId)
    return (
      <div className="grid gap-6">
        <Heading icon={<CircleAlert aria-hidden />} tone="warning" title="No sabemos qué compra comprobar">
          <p>A este enlace le falta el identificador del pago. Si acabas de pagar un regalo, te llegará su código por email.</p>
        </Heading>
        <div>
          <BackToGift variant="default" />
        </div>
      </div>
    );

  const shown = kept ?? (data?.status === 'paid' && data.code ? data : null);
  if (shown?.code) return <Revealed purchase={shown} code={shown.code} />;
  if (data?.status === 'paid') return <AlreadyShown purchase={data} />;

  if (data?.status === 'expired')
    return (
      <div className="grid gap-6">
        <Heading icon={<CircleAlert aria-hidden />} tone="warning" title="El pago no se ha completado">
          <p>La página de pago caducó antes de terminar, así que no se ha cobrado nada. Puedes volver a intentarlo cuando quieras.</p>
        </Heading>
        <div>
          <BackToGift variant="default" />
        </div>
      </div>
    );

  if (status.isError)
    return (
      <div className="grid gap-6">
        <Heading icon={<CircleAlert aria-hidden />} tone="error" title="No hemos podido comprobar el pago">
          <p role="alert">{messageOf(status.error)}</p>
          <p>Si has pagado, no pagues otra vez: te enviaremos el código por email en cuanto se confirme.</p>
        </Heading>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button onClick={retry}>
            <RotateCw aria-hidden /> Reintentar
          </Button>
          <BackToGift />
        </div>
      </div>
    );

  if (timedOut)
    return (
      <div className="grid gap-6">
        <Heading icon={<Clock aria-hidden />} tone="warning" title="Estamos confirmando tu pago">
          <p>
            Está tardando más de lo habitual. No hace falta que pagues otra vez: en cuanto se confirme, te enviaremos el código del regalo
            por email.
          </p>
        </Heading>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button onClick={retry}>
            <RotateCw aria-hidden /> Volver a comprobar
          </Button>
          <Button asChild variant="outline">
            <Link to="/">Ir al inicio</Link>
          </Button>
        </div>
      </div>
    );

  return (
    <div className="grid justify-items-center gap-4 py-10 text-center" aria-live="polite">
      <Spinner className="[&_svg]:size-8" label="Confirmando el pago…" />
      <h1 className="font-display text-2xl font-semibold tracking-tight">Confirmando el pago…</h1>
      <p className="max-w-sm text-[0.9375rem] text-muted-foreground">
        Suele tardar unos segundos. En cuanto se confirme, verás aquí el código del regalo. No cierres esta página.
      </p>
    </div>
  );
}

/** «Para marta@…»: who else gets the code by mail. */
const forWhom = (p: GiftPurchase) => (p.recipientEmail ? ` para ${p.recipientEmail}` : '');

function Revealed({ purchase, code }: { purchase: GiftPurchase; code: string }) {
  const codeRef = useRef<HTMLParagraphElement>(null);
  const linkRef = useRef<HTMLInputElement>(null);
  const link = purchase.link ?? `${window.location.origin}/gift/${code}`;
  return (
    <div className="grid gap-6">
      <Heading icon={<Gift aria-hidden />} title="Tu regalo está listo">
        <p>
          {monthsLabel(purchase.months)} de Diván Premium{forWhom(purchase)}. Pásale a tu colega el código o el enlace: lo canjea en su
          espacio de trabajo.
        </p>
      </Heading>

      <Card>
        <CardContent className="grid gap-5">
          <div className="grid gap-2">
            <h2 className="text-[0.8125rem] font-medium text-muted-foreground">Código de regalo</h2>
            <p
              ref={codeRef}
              tabIndex={-1}
              data-testid="gift-code"
              className="select-all rounded-lg bg-muted px-4 py-3 text-center font-mono text-xl font-semibold tracking-wider outline-none sm:text-2xl"
            >
              {/* On a phone it wraps after a dash, never inside a group. */}
              {formatGiftCode(code)
                .split('-')
                .map((group, i, all) => (
                  <Fragment key={i}>
                    {group}
                    {i < all.length - 1 ? (
                      <>
                        -<wbr />
                      </>
                    ) : null}
                  </Fragment>
                ))}
            </p>
          </div>
          <div className="grid gap-1.5">
            <label htmlFor="gift-link" className="text-[0.8125rem] font-medium text-muted-foreground">
              Enlace para canjearlo
            </label>
            <input
              ref={linkRef}
              id="gift-link"
              readOnly
              value={link}
              onFocus={(e) => e.currentTarget.select()}
              className="h-10 w-full min-w-0 rounded-md border border-input bg-card px-3 text-sm text-foreground"
            />
          </div>
          <CopyButtons
            items={[
              { label: 'Copiar código', text: formatGiftCode(code), target: codeRef },
              { label: 'Copiar enlace', text: link, target: linkRef },
            ]}
          />
          <p className="flex items-start gap-2 rounded-lg border border-warning-fg/20 bg-warning-bg px-4 py-3 text-sm leading-relaxed text-warning-fg">
            <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
            <span>Guárdalo: solo te lo mostramos esta vez (también te lo hemos enviado por email).</span>
          </p>
        </CardContent>
      </Card>

      <Amounts purchase={purchase} />
      <Actions />
    </div>
  );
}

function AlreadyShown({ purchase }: { purchase: GiftPurchase }) {
  return (
    <div className="grid gap-6">
      <Heading icon={<MailCheck aria-hidden />} title="Tu regalo está pagado">
        <p>
          {monthsLabel(purchase.months)} de Diván Premium{forWhom(purchase)}. El código ya se mostró una vez y, por seguridad, no lo
          volvemos a enseñar: lo tienes en tu email{purchase.recipientEmail ? ', y tu colega en el suyo' : ''}.
        </p>
      </Heading>
      <Amounts purchase={purchase} />
      <Actions />
    </div>
  );
}

function Amounts({ purchase }: { purchase: GiftPurchase }) {
  const rows = [
    ['Importe', formatCurrency(purchase.subtotal)],
    ['IVA', formatCurrency(purchase.vat)],
  ] as const;
  return (
    <Card>
      <CardContent className="grid gap-3 text-sm">
        <dl className="grid gap-2" data-testid="gift-amounts">
          {rows.map(([label, value]) => (
            <div key={label} className="flex justify-between gap-4">
              <dt className="text-muted-foreground">{label}</dt>
              <dd className="tabular-nums">{value}</dd>
            </div>
          ))}
          <div className="flex justify-between gap-4 border-t pt-2 font-semibold">
            <dt>Total pagado</dt>
            <dd className="tabular-nums">{formatCurrency(purchase.total)}</dd>
          </div>
        </dl>
        <p className="text-muted-foreground">
          {purchase.expiresAt ? `Se puede canjear hasta el ${formatDate(purchase.expiresAt)}. ` : ''}La factura de Diván está en{' '}
          <Link to="/settings/payments" className="whitespace-nowrap font-medium text-primary underline-offset-4 hover:underline">
            Ajustes › Pagos
          </Link>
          .
        </p>
      </CardContent>
    </Card>
  );
}

const Actions = () => (
  <div className="flex flex-col gap-2 sm:flex-row">
    <Button asChild size="lg">
      <Link to="/">Ir al inicio</Link>
    </Button>
    <Button asChild size="lg" variant="outline">
      <Link to="/gift">Regalar otro</Link>
    </Button>
  </div>
);

export { GiftPurchasedRoute as Component };
