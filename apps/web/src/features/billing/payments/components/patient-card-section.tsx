import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Copy, CreditCard, Mail, Trash2 } from 'lucide-react';
import type { PatientPaymentMethod } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { LoadError } from '@/components/ui/states';
import { Switch } from '@/components/ui/switch';
import { messageOf } from '@/lib/error-message';
import { formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useAuthStore } from '@/stores/auth-store';
import { useCardLink, usePaymentMethod, useRemoveCard, useSetAutoCharge, type PaymentLink } from '../api/payments-api';
import { brandName, expiryOf, untilText } from '../utils/labels';
import { copyLink } from '../utils/copy-text';
import { TestModeBadge } from './test-mode';

type Props = {
  wid: string;
  patient: { id: string; name: string; email: string | null };
  /** patient_billing update: the switch, the links and removing the card. */
  canUpdate: boolean;
};

/** «Tarjeta y cobros» in the patient's «Facturación»: the card saved on their therapist's Stripe account and the automatic charges. */
export function PatientCardSection({ wid, patient, canUpdate }: Props) {
  const method = usePaymentMethod(wid, patient.id);
  const data = method.data;
  return (
    <Card data-testid="patient-card">
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-2">
          <CardTitle className="flex items-center gap-2">
            <CreditCard className="size-4 text-primary" aria-hidden />
            Tarjeta y cobros
          </CardTitle>
          {data?.mode === 'test' ? <TestModeBadge /> : null}
        </div>
        <CardDescription>
          Los datos de la tarjeta los guarda Stripe{data ? ` en la cuenta de ${data.therapist.name}` : ''}: ni Diván ni el equipo los ven.
          Es el paciente quien la guarda y acepta el mandato para cobrarle sus facturas.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {method.isError && !data ? (
          <LoadError error={method.error} onRetry={() => void method.refetch()} what="la tarjeta del paciente" />
        ) : null}
        {!data && !method.isError ? <Spinner label="Cargando la tarjeta del paciente" /> : null}
        {data ? <Body wid={wid} patient={patient} data={data} canUpdate={canUpdate} /> : null}
      </CardContent>
    </Card>
  );
}

function Body({ wid, patient, data, canUpdate }: Props & { data: PatientPaymentMethod }) {
  const userId = useAuthStore((s) => s.userId);
  const auto = useSetAutoCharge(wid, patient.id);
  const remove = useRemoveCard(wid, patient.id);
  const link = useCardLink(wid, patient.id);
  const [sent, setSent] = useState<PaymentLink | null>(null);
  const [removing, setRemoving] = useState(false);
  const switchId = useId();
  const { card } = data;
  const mine = data.therapist.id === userId;

  const makeLink = async (send: boolean) => {
    try {
      const made = await link.mutateAsync(send);
      setSent(made);
      if (!send) await copyLink(made.url);
    } catch (e) {
      toast.error(messageOf(e));
    }
  };

  return (
    <>
      {!data.therapistCanCharge ? (
        <Alert variant="info" data-testid="not-connected">
          {mine ? (
            <>
              Aún no puedes cobrar con tarjeta: conecta tu cuenta de Stripe en <Link to="/settings/billing">Ajustes › Facturación</Link>.
            </>
          ) : (
            `${data.therapist.name} aún no puede cobrar con tarjeta: tiene que conectar su cuenta de Stripe en sus Ajustes › Facturación.`
          )}
        </Alert>
      ) : null}

      <div className="flex flex-wrap items-center gap-3 rounded-lg border p-3 sm:p-4">
        <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-accent text-accent-foreground">
          <CreditCard className="size-5" aria-hidden />
        </span>
        {card ? (
          <div className="grid min-w-0 flex-1 basis-44 gap-0.5" data-testid="saved-card">
            <p className="font-medium">
              {brandName(card.brand)} <span className="whitespace-nowrap tabular-nums">···· {card.last4}</span>
            </p>
            <p className="text-[0.8125rem] text-muted-foreground">
              Caduca {expiryOf(card)}
              {data.mandateAcceptedAt ? ` · mandato aceptado el ${formatDate(data.mandateAcceptedAt)}` : ''}
            </p>
          </div>
        ) : (
          <div className="grid min-w-0 flex-1 basis-44 gap-0.5">
            <p className="font-medium">Sin tarjeta guardada</p>
            <p className="text-[0.8125rem] text-muted-foreground" data-testid="pending-link">
              {data.pendingLinkExpiresAt
                ? `Hay un enlace esperando a que la guarde: caduca el ${untilText(data.pendingLinkExpiresAt)}.`
                : 'Envíale un enlace para que la guarde él mismo en Stripe.'}
            </p>
          </div>
        )}
        {card && canUpdate ? (
          <Button variant="ghost" size="sm" className="text-destructive" onClick={() => setRemoving(true)}>
            <Trash2 aria-hidden /> Quitar tarjeta
          </Button>
        ) : null}
      </div>

      {card ? (
        <div className="flex items-start justify-between gap-4">
          <div className="grid gap-1">
            <label htmlFor={switchId} className="text-sm font-medium">
              Cobros automáticos
            </label>
            <p id={`${switchId}-hint`} className="text-[0.8125rem] text-muted-foreground">
              Las facturas de este paciente se cobran en su tarjeta: solas, si se emiten automáticamente, o al pulsar «Cobrar con tarjeta»
              en la factura. Desactivados, la tarjeta no se cobra.
            </p>
          </div>
          <Switch
            id={switchId}
            checked={data.autoCharge}
            disabled={!canUpdate || auto.isPending}
            aria-describedby={`${switchId}-hint`}
            onCheckedChange={(on) =>
              auto.mutate(on, {
                onSuccess: (m) => toast.success(m.autoCharge ? 'Cobros automáticos activados' : 'Cobros automáticos desactivados'),
                onError: (e) => toast.error(messageOf(e)),
              })
            }
          />
        </div>
      ) : null}

      {canUpdate && data.therapistCanCharge ? (
        <div className="grid gap-3">
          <div className="flex flex-wrap gap-2">
            <Button
              variant={card ? 'outline' : 'default'}
              disabled={!patient.email}
              loading={link.isPending && link.variables === true}
              onClick={() => void makeLink(true)}
            >
              <Mail aria-hidden /> {card ? 'Enviar enlace para cambiar la tarjeta' : 'Enviar enlace para guardar tarjeta'}
            </Button>
            <Button variant="outline" loading={link.isPending && link.variables === false} onClick={() => void makeLink(false)}>
              <Copy aria-hidden /> Copiar enlace
            </Button>
          </div>
          {!patient.email ? (
            <p className="text-[0.8125rem] text-muted-foreground">
              El paciente no tiene email en su ficha: copia el enlace y envíaselo tú.
            </p>
          ) : null}
          {sent ? <LinkMade link={sent} /> : null}
        </div>
      ) : null}

      <ConfirmDialog
        open={removing}
        onOpenChange={setRemoving}
        title="¿Quitar la tarjeta guardada?"
        description={`Se borra de la cuenta de Stripe de ${data.therapist.name} y no se podrá cobrar con ella. Para volver a cobrar con tarjeta, el paciente tendrá que guardar otra.`}
        confirmLabel="Quitar tarjeta"
        onConfirm={async () => {
          await remove.mutateAsync(undefined).catch((e: unknown) => {
            throw new Error(messageOf(e));
          });
          toast.success('Tarjeta quitada');
        }}
      />
    </>
  );
}

/** The link just made: where it was mailed and until when, or the link itself to copy by hand. */
export function LinkMade({ link }: { link: PaymentLink }) {
  const id = useId();
  return (
    <div className="grid gap-2" data-testid="link-made">
      <Alert variant="success">
        {link.mailedTo ? `Enlace enviado por email a ${link.mailedTo}.` : 'Enlace creado.'} Caduca el {untilText(link.expiresAt)}.
      </Alert>
      {!link.mailedTo ? (
        <div className="grid gap-1.5">
          <label htmlFor={id} className="text-sm font-medium">
            Enlace para el paciente
          </label>
          <Input id={id} readOnly value={link.url} onFocus={(e) => e.currentTarget.select()} className="font-mono text-xs" />
        </div>
      ) : null}
    </div>
  );
}
