import { useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ArrowLeft, Lock } from 'lucide-react';
import { checkPermissions, errorMessage, grantRefusal, roleBody, type Permission, type Role } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { NoAccess } from '@/components/ui/no-access';
import { PageSpinner } from '@/components/ui/spinner';
import { useAbility } from '@/lib/ability';
import { isApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { isRealWorkspace, useCurrentWorkspace } from '@/stores/workspaces-store';
import { useCreateRole, useRoles, useUpdateRole } from '../api/roles-api';
import { PermissionMatrix } from '../components/permission-matrix';
import { emptyMatrix, grantScope, toMatrix, toPermissions, type Matrix } from '../utils/permission-matrix';
import { usePageTitle } from '@/lib/use-page-title';

/** Codes about the permission list, shown above the matrix; the rest go above the buttons. */
const permissionCodes = new Set([
  'permission_missing',
  'invalid_permission',
  'invalid_action_combination',
  'duplicate_permissions',
  'permission_exists',
  'access_denied',
]);

function RoleForm({ role, readOnlyReason }: { role: Role | null; readOnlyReason: string | null }) {
  const ws = useCurrentWorkspace();
  const navigate = useNavigate();
  const create = useCreateRole(ws.id);
  const update = useUpdateRole(ws.id);
  const [name, setName] = useState(role?.name ?? '');
  const [matrix, setMatrix] = useState<Matrix>(() => (role ? toMatrix(role.permissions as Permission[]) : emptyMatrix()));
  const [errors, setErrors] = useState<{ name?: string; permissions?: string; form?: string }>({});
  const readOnly = readOnlyReason !== null;
  const pending = create.isPending || update.isPending;
  const ability = useAbility();
  const scope = useMemo(() => grantScope(ability, (role?.permissions ?? []) as Permission[]), [ability, role]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const permissions = toPermissions(matrix);
    const next: typeof errors = {};
    const parsedName = roleBody.shape.name.safeParse(name);
    if (!parsedName.success) next.name = parsedName.error.issues[0]?.message;
    // The same check the server runs, so the answer comes before the request.
    const problem = checkPermissions(permissions);
    if (problem) next.permissions = problem === 'permission_missing' ? 'Marca al menos un permiso.' : errorMessage(problem);
    const missing = problem ? [] : scope.missing(permissions);
    if (missing.length > 0) next.permissions = grantRefusal.notHeld(missing);
    setErrors(next);
    if (Object.keys(next).length > 0 || !parsedName.success) {
      (document.getElementById(next.name ? 'role-name' : 'role-permissions') as HTMLElement | null)?.focus();
      return;
    }
    try {
      const body = { name: parsedName.data, permissions };
      if (role) await update.mutateAsync({ roleId: role.id, body });
      else await create.mutateAsync(body);
      toast.success(role ? `Rol «${body.name}» guardado` : `Rol «${body.name}» creado`);
      await navigate('/settings/workspace/roles');
    } catch (error) {
      if (!isApiError(error)) return setErrors({ form: 'Error inesperado.' });
      if (error.code === 'role_exists') setErrors({ name: error.message });
      else if (permissionCodes.has(error.code)) setErrors({ permissions: error.message });
      else setErrors({ form: error.message });
    }
  };

  const title = role ? (readOnly ? role.name : `Editar «${role.name}»`) : 'Nuevo rol';

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-6">
      <div className="grid gap-3">
        <Button asChild variant="ghost" size="sm" className="-ml-3 justify-self-start">
          <Link to="/settings/workspace/roles">
            <ArrowLeft aria-hidden /> Roles
          </Link>
        </Button>
        <div className="grid gap-1">
          <p className="text-[0.8125rem] font-medium text-muted-foreground">{ws.name}</p>
          <h2 className="font-display text-2xl font-semibold tracking-tight">{title}</h2>
        </div>
      </div>
      {readOnlyReason ? (
        <Alert>
          <span className="flex items-start gap-2">
            <Lock className="mt-0.5 size-4 shrink-0" aria-hidden /> {readOnlyReason}
          </span>
        </Alert>
      ) : null}
      {errors.form ? <Alert variant="error">{errors.form}</Alert> : null}
      <Field label="Nombre del rol" error={errors.name} className="max-w-md">
        <Input
          id="role-name"
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            if (errors.name) setErrors((x) => ({ ...x, name: undefined }));
          }}
          readOnly={readOnly}
          maxLength={60}
          placeholder="Por ejemplo: Colaboración"
        />
      </Field>
      <div className="grid gap-3">
        <div className="grid gap-1">
          <h3 id="role-permissions" tabIndex={-1} className="text-sm font-medium outline-none">
            Permisos
          </h3>
          <p className="text-[0.8125rem] text-muted-foreground">
            Para crear, editar o eliminar hace falta poder ver. «Solo sus pacientes» limita el permiso a los pacientes asignados a la
            persona (o a lo que ella misma ha creado).
          </p>
        </div>
        {errors.permissions ? (
          <Alert variant="error" id="role-permissions-error">
            {errors.permissions}
          </Alert>
        ) : null}
        <PermissionMatrix
          value={matrix}
          onChange={(m) => {
            setMatrix(m);
            if (errors.permissions) setErrors((e) => ({ ...e, permissions: undefined }));
          }}
          readOnly={readOnly}
          grantable={scope.cell}
        />
      </div>
      {readOnly ? null : (
        <div className="sticky bottom-0 -mx-4 flex flex-col-reverse gap-2 border-t bg-background/95 px-4 py-3 backdrop-blur sm:mx-0 sm:flex-row sm:justify-end sm:rounded-b-xl sm:px-0">
          <Button asChild variant="outline">
            <Link to="/settings/workspace/roles">Cancelar</Link>
          </Button>
          <Button type="submit" loading={pending}>
            {role ? 'Guardar cambios' : 'Crear rol'}
          </Button>
        </div>
      )}
    </form>
  );
}

/** /settings/workspace/roles/new and /settings/workspace/roles/:roleId */
export function RoleEditorRoute() {
  const { roleId } = useParams();
  usePageTitle(roleId ? 'Editar rol' : 'Nuevo rol');
  const ws = useCurrentWorkspace();
  const ability = useAbility();
  const canRead = isRealWorkspace(ws.id) && ability.can('read', 'roles');
  const roles = useRoles(ws.id, canRead && !!roleId);

  if (!isRealWorkspace(ws.id)) return <PageSpinner />;
  if (!canRead) return <NoAccess title="Sin acceso a los roles del espacio" />;
  if (roleId && roles.isPending) return <PageSpinner />;
  if (roleId && roles.isError) return <Alert variant="error">{roles.error.message}</Alert>;

  const role = roleId ? (roles.data?.find((r) => r.id === roleId) ?? null) : null;
  if (roleId && !role) {
    return (
      <Alert variant="error">
        {errorMessage('role_not_found')} <Link to="/settings/workspace/roles">Volver a los roles</Link>
      </Alert>
    );
  }

  const readOnlyReason =
    ws.rolesManager !== 'user'
      ? 'La gestión propia de roles está desactivada en este espacio: los roles se pueden consultar pero no cambiar.'
      : role?.isAdmin
        ? 'El rol Administrador viene incluido, tiene acceso a todo y no se puede modificar.'
        : !ability.can(role ? 'update' : 'create', 'roles')
          ? 'Tus roles te permiten ver este rol, pero no cambiarlo.'
          : null;

  return <RoleForm key={`${ws.id}:${roleId ?? 'new'}`} role={role} readOnlyReason={readOnlyReason} />;
}

export { RoleEditorRoute as Component };
