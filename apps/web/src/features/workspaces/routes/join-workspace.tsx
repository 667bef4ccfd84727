import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { CircleAlert, Link2Off, LogOut, MailQuestion, UserCheck } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { PageSpinner } from '@/components/ui/spinner';
import { isApiError } from '@/lib/api-client';
import { messageOf } from '@/lib/error-message';
import { endLocalSession } from '@/lib/auth-session';
import { toast } from '@/lib/toast';
import { useAuthStore } from '@/stores/auth-store';
import { useWorkspacesStore } from '@/stores/workspaces-store';
import { signOutOnServer, useAcceptInvitation, useInvitation } from '../api/workspaces-api';
import { WorkspaceLogo } from '../components/workspace-logo';
import { invitationScreen } from '../utils/invitation-state';
import { usePageTitle } from '@/lib/use-page-title';

function StateScreen({ icon, title, children, actions }: { icon: ReactNode; title: string; children: ReactNode; actions: ReactNode }) {
  return (
    <div className="grid gap-6">
      <div className="grid size-14 place-items-center rounded-full bg-accent text-accent-foreground">{icon}</div>
      <div className="grid gap-2">
        <h1 className="font-display text-[1.75rem] font-semibold leading-tight tracking-tight">{title}</h1>
        <div className="text-[0.9375rem] leading-relaxed text-muted-foreground">{children}</div>
      </div>
      <div className="flex flex-wrap gap-3">{actions}</div>
    </div>
  );
}

/** The page the invitation mail links to: who invites, to which workspace, and one button to join. */
export function JoinWorkspaceRoute() {
  usePageTitle('Unirse a un espacio');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const myEmail = useAuthStore((s) => s.profile?.email ?? '');
  const invitation = useInvitation(id);
  const accept = useAcceptInvitation();
  const select = useWorkspacesStore((s) => s.select);
  const alreadyMember = useWorkspacesStore((s) => s.workspaces.some((w) => w.id === invitation.data?.workspaceId));
  const [leaving, setLeaving] = useState(false);

  const switchAccount = async () => {
    setLeaving(true);
    await signOutOnServer();
    // The guard sends a signed-out visitor to sign-in and back here afterwards.
    endLocalSession('switch');
  };

  const goToWorkspace = (workspaceId: string) => {
    select(workspaceId);
    void navigate('/', { replace: true });
  };

  const onAccept = () =>
    accept.mutate(id, {
      onSuccess: (ws) => {
        toast.success(`Te has unido a ${ws.name}`);
        goToWorkspace(ws.id);
      },
    });

  if (invitation.isPending) return <PageSpinner />;

  const failure = (error: unknown) => (isApiError(error) ? error : error ? { code: 'unexpected_error', status: 0 } : null);
  const screen = invitationScreen({ read: failure(invitation.error), accept: failure(accept.error), invitation: invitation.data, myEmail });
  const code = isApiError(accept.error) ? accept.error.code : null;
  const home = (
    <Button asChild>
      <Link to="/">Ir al inicio</Link>
    </Button>
  );

  if (screen === 'gone') {
    return (
      <StateScreen icon={<MailQuestion className="size-7" aria-hidden />} title="Esta invitación ya no existe" actions={home}>
        Puede que la hayan cancelado o que el enlace esté incompleto. Pide a quien te invitó que te envíe una nueva.
      </StateScreen>
    );
  }

  if (screen === 'broken') {
    return (
      <StateScreen icon={<Link2Off className="size-7" aria-hidden />} title="Este enlace de invitación no es válido" actions={home}>
        Puede que se haya copiado incompleto. Ábrelo de nuevo desde el email de la invitación o pide a quien te invitó que te envíe otra.
      </StateScreen>
    );
  }

  if (screen === 'retry' || !invitation.data) {
    return (
      <StateScreen
        icon={<CircleAlert className="size-7" aria-hidden />}
        title="No se ha podido cargar la invitación"
        actions={
          <>
            <Button onClick={() => void invitation.refetch()} loading={invitation.isFetching}>
              Reintentar
            </Button>
            <Button asChild variant="ghost">
              <Link to="/">Ir al inicio</Link>
            </Button>
          </>
        }
      >
        {messageOf(invitation.error)}
      </StateScreen>
    );
  }

  const inv = invitation.data;

  if (screen === 'accepted') {
    return (
      <StateScreen
        icon={<UserCheck className="size-7" aria-hidden />}
        title="Esta invitación ya se ha aceptado"
        actions={alreadyMember ? <Button onClick={() => goToWorkspace(inv.workspaceId)}>Ir a {inv.workspaceName}</Button> : home}
      >
        {alreadyMember
          ? `Ya eres miembro de ${inv.workspaceName}.`
          : 'Cada invitación solo se puede usar una vez. Si necesitas acceso, pide una nueva a quien te invitó.'}
      </StateScreen>
    );
  }

  if (screen === 'other-account') {
    return (
      <StateScreen
        icon={<CircleAlert className="size-7" aria-hidden />}
        title="Esta invitación es para otra cuenta"
        actions={
          <>
            <Button onClick={() => void switchAccount()} loading={leaving}>
              {leaving ? null : <LogOut aria-hidden />} Cerrar sesión y continuar
            </Button>
            <Button asChild variant="ghost">
              <Link to="/">Ir al inicio</Link>
            </Button>
          </>
        }
      >
        <p>
          Esta invitación es para <strong className="font-semibold text-foreground">{inv.email}</strong>; has iniciado sesión como{' '}
          <strong className="font-semibold text-foreground">{myEmail}</strong>.
        </p>
        <p className="mt-2">Cierra sesión y entra (o crea una cuenta) con el email invitado para unirte a {inv.workspaceName}.</p>
      </StateScreen>
    );
  }

  return (
    <div className="grid gap-6">
      <Card>
        <CardContent className="grid justify-items-center gap-5 py-8 text-center sm:py-10">
          <WorkspaceLogo name={inv.workspaceName} url={null} className="size-16 rounded-2xl text-2xl" />
          <div className="grid gap-2">
            <p className="text-sm font-medium text-muted-foreground">Invitación a un espacio de trabajo</p>
            <h1 className="font-display text-[1.75rem] font-semibold leading-tight tracking-tight">Únete a {inv.workspaceName}</h1>
            <p className="text-[0.9375rem] leading-relaxed text-muted-foreground">
              {inv.invitedBy ? <strong className="font-semibold text-foreground">{inv.invitedBy}</strong> : 'Te'}
              {inv.invitedBy ? ' te invita' : ' invitan'} a trabajar en este espacio en Diván. Invitación para{' '}
              <strong className="font-semibold text-foreground">{inv.email}</strong>.
            </p>
          </div>
          {accept.isError && !code?.startsWith('invitation_') ? (
            <Alert variant="error" className="w-full text-left">
              {accept.error.message}
            </Alert>
          ) : null}
          <div className="flex w-full flex-col-reverse justify-center gap-2 sm:flex-row">
            <Button asChild variant="outline" size="lg">
              <Link to="/">Ahora no</Link>
            </Button>
            <Button size="lg" onClick={onAccept} loading={accept.isPending}>
              Aceptar invitación
            </Button>
          </div>
        </CardContent>
      </Card>
      <p className="text-center text-[0.8125rem] text-muted-foreground">
        Al unirte, las personas que administran el espacio verán tu nombre y email, y podrán cambiar tus roles.
      </p>
    </div>
  );
}

export { JoinWorkspaceRoute as Component };
