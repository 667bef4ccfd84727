import { useState } from 'react';
import { Link } from 'react-router';
import { ChevronRight, Lock, Plus, ShieldCheck, Trash2 } from 'lucide-react';
import { MAX_ROLES_PER_WORKSPACE, SUBJECTS, type Permission, type Role } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { NoAccess } from '@/components/ui/no-access';
import { PageHeading } from '@/components/ui/page-heading';
import { PageSpinner } from '@/components/ui/spinner';
import { useAbility } from '@/lib/ability';
import { isApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { isRealWorkspace, useCurrentWorkspace } from '@/stores/workspaces-store';
import { useDeleteRole, useRoles } from '../api/roles-api';
import { DisableSelfManagedDialog } from '../components/disable-self-managed-dialog';
import { usePageTitle } from '@/lib/use-page-title';

const seatsText = (n: number) => (n === 0 ? 'Sin asignar' : n === 1 ? '1 persona' : `${n} personas`);

/** "Pacientes, Agenda" — the groups a role reaches, so the list says what each role is for. */
function reach(role: Role): string {
  if (role.isAdmin) return 'Acceso total al espacio';
  const groups = [...new Set((role.permissions as Permission[]).map((p) => SUBJECTS[p.subject]?.group).filter(Boolean))];
  return groups.length ? groups.join(', ') : 'Sin permisos';
}

export function WorkspaceRolesRoute() {
  usePageTitle('Roles y permisos');
  const ws = useCurrentWorkspace();
  const ability = useAbility();
  const canRead = isRealWorkspace(ws.id) && ability.can('read', 'roles');
  const roles = useRoles(ws.id, canRead);
  const remove = useDeleteRole(ws.id);
  const [deleting, setDeleting] = useState<Role | null>(null);
  const [disabling, setDisabling] = useState(false);

  if (!isRealWorkspace(ws.id)) return <PageSpinner />;
  if (!canRead) return <NoAccess title="Sin acceso a los roles del espacio" />;

  const selfManaged = ws.rolesManager === 'user';
  const canCreate = selfManaged && ability.can('create', 'roles');
  const canDelete = selfManaged && ability.can('delete', 'roles');
  const atLimit = (roles.data?.length ?? 0) >= MAX_ROLES_PER_WORKSPACE;

  return (
    <div className="grid gap-6">
      <PageHeading
        title="Roles y permisos"
        workspace={ws.name}
        actions={
          canCreate ? (
            atLimit ? (
              <Button disabled title="Has alcanzado el número máximo de roles">
                <Plus aria-hidden /> Nuevo rol
              </Button>
            ) : (
              <Button asChild>
                <Link to="/settings/workspace/roles/new">
                  <Plus aria-hidden /> Nuevo rol
                </Link>
              </Button>
            )
          ) : null
        }
      >
        Cada miembro tiene uno o varios roles; sus permisos se suman.
      </PageHeading>
      {!selfManaged ? (
        <Alert>
          <span className="flex items-start gap-2">
            <Lock className="mt-0.5 size-4 shrink-0" aria-hidden />
            La gestión propia de roles está desactivada en este espacio: los roles quedan como están y no se pueden crear, editar ni
            eliminar. Puedes seguir asignándolos a los miembros.
          </span>
        </Alert>
      ) : null}
      {roles.isPending ? (
        <PageSpinner />
      ) : roles.isError ? (
        <Alert variant="error">{roles.error.message}</Alert>
      ) : (
        <Card>
          <ul className="divide-y" aria-label="Roles">
            {roles.data.map((r) => (
              <li key={r.id} className="flex items-center gap-2 pr-2">
                <Link
                  to={`/settings/workspace/roles/${r.id}`}
                  className="flex min-w-0 flex-1 items-center gap-3 rounded-lg px-4 py-3.5 hover:bg-muted/60 sm:px-5"
                >
                  <span className="grid size-9 shrink-0 place-items-center rounded-lg bg-accent text-accent-foreground">
                    <ShieldCheck className="size-[1.125rem]" aria-hidden />
                  </span>
                  <span className="grid min-w-0 flex-1 gap-0.5">
                    <span className="flex flex-wrap items-center gap-1.5">
                      <span className="font-medium">{r.name}</span>
                      {r.isAdmin ? <Badge variant="outline">Incluido</Badge> : null}
                    </span>
                    <span className="truncate text-[0.8125rem] text-muted-foreground">{reach(r)}</span>
                  </span>
                  <span className="hidden shrink-0 text-[0.8125rem] text-muted-foreground sm:inline">{seatsText(r.seats)}</span>
                  <ChevronRight className="size-4 shrink-0 text-muted-foreground" aria-hidden />
                </Link>
                {canDelete && !r.isAdmin ? (
                  <Button variant="ghost" size="icon" aria-label={`Eliminar el rol ${r.name}`} onClick={() => setDeleting(r)}>
                    <Trash2 aria-hidden />
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        </Card>
      )}
      {selfManaged && ws.isOwner ? (
        <Card>
          <CardHeader>
            <CardTitle>Gestión propia de roles</CardTitle>
            <CardDescription>
              Ahora puedes crear roles a medida y cambiar sus permisos. Si prefieres fijarlos tal como están, desactívala: es definitivo y
              no se puede volver a activar.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <Button
              variant="outline"
              onClick={() => setDisabling(true)}
              className="border-destructive/40 text-destructive hover:bg-destructive/8"
            >
              Desactivar la gestión propia de roles
            </Button>
          </CardContent>
        </Card>
      ) : null}
      <DisableSelfManagedDialog workspaceId={ws.id} open={disabling} onOpenChange={setDisabling} />
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(o) => !o && setDeleting(null)}
        title={`¿Eliminar el rol «${deleting?.name ?? ''}»?`}
        description={
          deleting && deleting.seats > 0
            ? `Lo tienen ${seatsText(deleting.seats).toLowerCase()} (miembros o invitaciones). Un rol asignado no se puede eliminar: quítaselo antes desde Miembros.`
            : 'Se eliminará para siempre. No afecta a ningún miembro porque nadie lo tiene asignado.'
        }
        confirmLabel="Eliminar rol"
        canConfirm={!!deleting && deleting.seats === 0}
        onConfirm={async () => {
          if (!deleting) return;
          try {
            await remove.mutateAsync(deleting.id);
          } catch (error) {
            // role_has_seats: someone was given the role since the list loaded.
            if (isApiError(error) && error.code === 'role_has_seats') void roles.refetch();
            throw error;
          }
          toast.success(`Rol «${deleting.name}» eliminado`);
        }}
      />
    </div>
  );
}

export { WorkspaceRolesRoute as Component };
