import { useState } from 'react';
import { Link } from 'react-router';
import { CalendarPlus, Gift, Infinity as Unlimited, Sparkles, UserCheck } from 'lucide-react';
import { REFERRAL_FRIEND_DAYS, type RedeemReferral, type Referral } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { LoadError } from '@/components/ui/states';
import { formatCurrency, formatDate } from '@/lib/format';
import { usePageTitle } from '@/lib/use-page-title';
import { isRealWorkspace, useCurrentWorkspace } from '@/stores/workspaces-store';
import { useReferral } from '../api/referral-api';
import { CopyField } from '../components/copy-field';
import { RedeemReferralForm } from '../components/redeem-referral-form';
import { ReferralFriends } from '../components/referral-friends';

const RULES = [
  {
    icon: CalendarPlus,
    text: `Tu colega tiene ${REFERRAL_FRIEND_DAYS} días más de prueba gratis al registrarse con tu enlace o tu código.`,
  },
  {
    icon: Gift,
    text: 'Tú tienes un mes gratis de tu plan cuando tu colega pague su primera factura: te lo descontamos de tu próxima factura de Diván.',
  },
  { icon: UserCheck, text: 'Vale para quien nunca ha tenido un plan de Diván y paga con su propia tarjeta, no con la tuya.' },
  { icon: Unlimited, text: 'Sin límite de colegas: cada uno que contrate es un mes más para ti.' },
];

/**
 * Ajustes › Invitar (/settings/invite): the person's referral link and code to share, the colleagues who
 * joined with them and the months off earned; and, for who came without the link, where to enter a code.
 */
export function InviteSettingsRoute() {
  usePageTitle('Invitar', 'Ajustes');
  const referral = useReferral();
  // Said here, not in the form: once redeemed, the form gives way to «Te invitó …» and the news stays.
  const [redeemed, setRedeemed] = useState<RedeemReferral | null>(null);

  if (referral.isPending)
    return (
      <div className="grid min-h-40 place-items-center">
        <Spinner label="Cargando tu invitación…" />
      </div>
    );
  if (referral.isError) return <LoadError what="tu invitación" error={referral.error} onRetry={() => void referral.refetch()} />;
  const r = referral.data;
  return (
    <div className="grid gap-6">
      <Share referral={r} />
      <Friends referral={r} />
      <InvitedBy referral={r} redeemed={redeemed} onRedeemed={setRedeemed} />
    </div>
  );
}

function Share({ referral }: { referral: Referral }) {
  return (
    <Card aria-labelledby="invite-title">
      <CardHeader>
        <CardTitle id="invite-title">Invita a tus colegas a Diván</CardTitle>
        <CardDescription>Comparte tu enlace o tu código con otros psicólogos y terapeutas: os beneficiáis los dos.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <ul className="grid gap-3 text-sm sm:grid-cols-2">
          {RULES.map(({ icon: Icon, text }) => (
            <li key={text} className="flex items-start gap-3 rounded-lg bg-muted/50 p-3 leading-relaxed">
              <Icon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
              <span>{text}</span>
            </li>
          ))}
        </ul>
        <div className="grid gap-4">
          <CopyField
            label="Tu enlace de invitación"
            value={referral.link}
            copyLabel="Copiar enlace"
            hint="Envíalo por email o por mensaje: al abrirlo, tu código ya está puesto."
          />
          <CopyField
            label="Tu código"
            value={referral.code}
            copyLabel="Copiar código"
            hint="Para quien se registra sin el enlace o ya tiene cuenta."
            mono
          />
        </div>
        <p className="text-sm text-muted-foreground">
          ¿Prefieres regalarle meses de Premium?{' '}
          <Link to="/gift" className="font-medium text-primary underline-offset-4 hover:underline">
            Regalar Diván
          </Link>
        </p>
      </CardContent>
    </Card>
  );
}

function Friends({ referral }: { referral: Referral }) {
  const { friends, earned } = referral;
  return (
    <Card aria-labelledby="friends-title">
      <CardHeader className="sm:flex sm:items-start sm:justify-between sm:gap-6">
        <div className="grid gap-1">
          <CardTitle id="friends-title">Colegas que se han unido</CardTitle>
          <CardDescription>Quienes se han registrado con tu enlace o tu código, y el mes gratis que te han dado.</CardDescription>
        </div>
        {friends.length > 0 ? (
          <p className="mt-3 grid shrink-0 gap-0.5 sm:mt-0 sm:text-right" data-testid="referral-earned">
            <span className="text-[0.8125rem] text-muted-foreground">Has ganado</span>
            <span className="font-display text-2xl font-semibold tabular-nums">{formatCurrency(earned)}</span>
          </p>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-3">
        <ReferralFriends friends={friends} />
        {friends.some((f) => f.reward) ? <p className="text-[0.8125rem] text-muted-foreground">Importes sin IVA.</p> : null}
      </CardContent>
    </Card>
  );
}

/** Who invited this person — or, if nobody yet, where to enter a colleague's code (the workspace's owner only). */
function InvitedBy({
  referral,
  redeemed,
  onRedeemed,
}: {
  referral: Referral;
  redeemed: RedeemReferral | null;
  onRedeemed: (result: RedeemReferral) => void;
}) {
  const ws = useCurrentWorkspace();
  const news = redeemed ? (
    <Alert variant="success" className="flex items-start gap-2">
      <Sparkles className="mt-0.5 size-4 shrink-0 text-success" aria-hidden />
      <span>
        Código aplicado: tu prueba gratis dura ahora hasta el <strong className="font-semibold">{formatDate(redeemed.freeTrialEnd)}</strong>
        .
      </span>
    </Alert>
  ) : null;

  if (referral.invitedBy)
    return (
      <Card>
        <CardContent className="grid gap-3">
          {news}
          <p className="flex items-center gap-2 text-sm">
            <UserCheck className="size-4 shrink-0 text-primary" aria-hidden />
            <span>
              Te invitó {referral.invitedBy.firstName} el {formatDate(referral.invitedBy.joinedAt)}.
            </span>
          </p>
        </CardContent>
      </Card>
    );

  return (
    <Card aria-labelledby="redeem-title">
      <CardHeader>
        <CardTitle id="redeem-title">¿Te ha invitado un colega?</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {news}
        {!isRealWorkspace(ws.id) ? (
          <Spinner label="Cargando tu espacio…" />
        ) : ws.isOwner ? (
          <RedeemReferralForm workspace={ws} onRedeemed={onRedeemed} />
        ) : (
          <p className="max-w-prose text-sm text-muted-foreground">
            {`El código de un colega da ${REFERRAL_FRIEND_DAYS} días más de prueba al espacio, y solo puede usarlo quien es titular del espacio: en «${ws.name}», ${ws.owner.firstName || 'su titular'}. Si tienes tu propio espacio, ábrelo para usar el código allí.`}
          </p>
        )}
      </CardContent>
    </Card>
  );
}

export { InviteSettingsRoute as Component };
