import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { UserPlus, Users } from 'lucide-react';
import type { Member } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { NoAccess } from '@/components/ui/no-access';
import { PageHeading } from '@/components/ui/page-heading';
import { PageSpinner } from '@/components/ui/spinner';
import { useAbility } from '@/lib/ability';
import { toast } from '@/lib/toast';
import { useAuthStore } from '@/stores/auth-store';
import { isRealWorkspace, useCurrentWorkspace } from '@/stores/workspaces-store';
import { useCancelInvitation, useMembers, useRemoveMember } from '../api/members-api';
import { MemberDialog } from '../components/member-dialog';
import { MemberRow, memberName } from '../components/member-row';
import { SeatUsage } from '../components/seat-usage';
import { usePageTitle } from '@/lib/use-page-title';

export function WorkspaceMembersRoute() {
  usePageTitle('Miembros del espacio');
  const ws = useCurrentWorkspace();
  const ability = useAbility();
  const userId = useAuthStore((s) => s.userId);
  const canRead = isRealWorkspace(ws.id) && ability.can('read', 'members');
  const members = useMembers(ws.id, canRead);
  const cancel = useCancelInvitation(ws.id);
  const remove = useRemoveMember(ws.id);
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [inviting, setInviting] = useState(false);
  const [editing, setEditing] = useState<Member | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);

  // An Individual workspace is one therapist's practice: working with others takes a team or clinic one.
  const individual = ws.template === 'freelance';
  const canInvite = ability.can('create', 'members') && !individual;
  const used = members.data?.length ?? 0;
  const full = used >= ws.maxSeats;

  // "Invita a tu equipo" from the success screen opens the dialog directly.
  useEffect(() => {
    if (params.get('invite') && canInvite && members.data) {
      if (!full) setInviting(true);
      setParams({}, { replace: true });
    }
  }, [params, setParams, canInvite, members.data, full]);

  if (!isRealWorkspace(ws.id)) return <PageSpinner />;
  if (!canRead) return <NoAccess title="Sin acceso a los miembros del espacio" />;

  const active = members.data?.filter((m) => m.status === 'active') ?? [];
  const pending = members.data?.filter((m) => m.status === 'pending') ?? [];
  const removingMe = removing?.userId === userId;

  const confirmRemove = async () => {
    if (!removing) return;
    if (removing.status === 'pending') {
      await cancel.mutateAsync(removing.id);
      toast.success(`Invitación a ${removing.email} cancelada`);
    } else {
      await remove.mutateAsync(removing.id);
      if (removingMe) {
        toast.success(`Has salido de ${ws.name}`);
        void navigate('/');
      } else toast.success(`${memberName(removing)} ya no es miembro de ${ws.name}`);
    }
  };

  const row = (m: Member) => (
    <MemberRow
      key={m.id}
      member={m}
      isMe={m.userId === userId}
      canUpdate={ability.can('update', 'members')}
      canDelete={ability.can('delete', 'members')}
      onEdit={() => setEditing(m)}
      onRemove={() => setRemoving(m)}
    />
  );

  return (
    <div className="grid gap-6">
      <PageHeading
        title="Miembros"
        workspace={ws.name}
        actions={
          canInvite ? (
            <Button onClick={() => setInviting(true)} disabled={!members.data || full}>
              <UserPlus aria-hidden /> Invitar
            </Button>
          ) : null
        }
      >
        Quién trabaja en este espacio, con qué roles y con qué comisión.
      </PageHeading>
      {members.isPending ? (
        <PageSpinner />
      ) : members.isError ? (
        <Alert variant="error">
          {members.error.message}{' '}
          <button type="button" className="font-medium underline" onClick={() => void members.refetch()}>
            Reintentar
          </button>
        </Alert>
      ) : (
        <>
          {individual && used <= 1 ? null : <SeatUsage used={used} max={ws.maxSeats} />}
          <Card>
            <ul className="divide-y" aria-label="Miembros">
              {active.map(row)}
            </ul>
          </Card>
          {pending.length > 0 ? (
            <section className="grid gap-3">
              <h3 className="text-sm font-medium text-muted-foreground">Invitaciones pendientes</h3>
              <Card>
                <ul className="divide-y" aria-label="Invitaciones pendientes">
                  {pending.map(row)}
                </ul>
              </Card>
            </section>
          ) : null}
          {individual ? (
            <Card className="grid gap-3 p-6 sm:p-8" data-testid="individual-invite-note">
              <div className="flex items-start gap-3">
                <Users className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden />
                <div className="grid gap-1.5">
                  <h3 className="font-medium">Este espacio es solo para ti</h3>
                  <p className="max-w-prose text-sm leading-relaxed text-muted-foreground">
                    Un espacio Individual es tu consulta privada: todos sus pacientes son tuyos. Para trabajar con otros terapeutas o con
                    recepción (invitarles, darles roles y permisos, repartir pacientes y comisiones) crea un espacio de Equipo o de Clínica,
                    que funciona con el plan Team. Tus pacientes de aquí siguen siendo tuyos.
                  </p>
                </div>
              </div>
              <div className="flex flex-wrap gap-2 sm:pl-8">
                <Button asChild>
                  <Link to="/workspaces/create">Crear un espacio de equipo</Link>
                </Button>
                <Button asChild variant="outline">
                  <Link to="/plans">Ver planes</Link>
                </Button>
              </div>
            </Card>
          ) : active.length <= 1 && pending.length === 0 && canInvite ? (
            <Card className="grid justify-items-center gap-3 p-8 text-center">
              <Users className="size-6 text-muted-foreground" aria-hidden />
              <p className="max-w-sm text-sm text-muted-foreground">
                Aún no hay nadie más en este espacio. Invita a otros terapeutas o a recepción y decide qué puede hacer cada persona.
              </p>
              <Button variant="outline" onClick={() => setInviting(true)} disabled={full}>
                <UserPlus aria-hidden /> Invitar a un miembro
              </Button>
            </Card>
          ) : null}
        </>
      )}
      <MemberDialog workspace={ws} open={inviting} onOpenChange={setInviting} />
      <MemberDialog workspace={ws} member={editing ?? undefined} open={!!editing} onOpenChange={(o) => !o && setEditing(null)} />
      <ConfirmDialog
        open={!!removing}
        onOpenChange={(o) => !o && setRemoving(null)}
        title={
          removing?.status === 'pending'
            ? '¿Cancelar la invitación?'
            : removingMe
              ? `¿Salir de ${ws.name}?`
              : `¿Quitar a ${removing ? memberName(removing) : ''} del espacio?`
        }
        description={
          removing?.status === 'pending'
            ? `El enlace enviado a ${removing.email} dejará de funcionar y se liberará su plaza.`
            : removingMe
              ? 'Dejarás de ver sus pacientes. Para volver necesitarás una nueva invitación.'
              : 'Perderá el acceso a los pacientes de este espacio. Sus datos y su cuenta de Diván se mantienen.'
        }
        confirmLabel={removing?.status === 'pending' ? 'Cancelar invitación' : removingMe ? 'Salir del espacio' : 'Quitar del espacio'}
        cancelLabel={removing?.status === 'pending' ? 'Mantenerla' : 'Cancelar'}
        onConfirm={confirmRemove}
      />
    </div>
  );
}

export { WorkspaceMembersRoute as Component };
