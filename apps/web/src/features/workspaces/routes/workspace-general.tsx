import { useEffect, useState, type FormEvent } from 'react';
import { TEMPLATE_LABELS, updateWorkspaceBody } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { NoAccess } from '@/components/ui/no-access';
import { PageHeading } from '@/components/ui/page-heading';
import { PageSpinner } from '@/components/ui/spinner';
import { useAbility } from '@/lib/ability';
import { isApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { isRealWorkspace, useCurrentWorkspace } from '@/stores/workspaces-store';
import { useRenameWorkspace } from '../api/workspaces-api';
import { WorkspaceLogoUpload } from '../components/workspace-logo-upload';
import { SecondFactorPolicyCard } from '../components/second-factor-policy-card';
import { usePageTitle } from '@/lib/use-page-title';

export function WorkspaceGeneralRoute() {
  usePageTitle('General del espacio');
  const ws = useCurrentWorkspace();
  const ability = useAbility();
  const canEdit = ability.can('update', 'workspace_profile');
  const rename = useRenameWorkspace(ws.id);
  const [name, setName] = useState(ws.name);
  const [error, setError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);

  // Another workspace chosen in the switcher, or a rename elsewhere: show its name.
  useEffect(() => setName(ws.name), [ws.id, ws.name]);

  if (!isRealWorkspace(ws.id)) return <PageSpinner />;
  if (!ability.can('read', 'workspace_profile')) return <NoAccess title="Sin acceso a los datos del espacio" />;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    setFormError(null);
    const parsed = updateWorkspaceBody.safeParse({ name });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    try {
      await rename.mutateAsync(parsed.data.name);
      toast.success('Nombre guardado');
    } catch (err) {
      if (isApiError(err) && err.code === 'workspace_already_exists') setError(err.message);
      else setFormError(isApiError(err) ? err.message : 'Error inesperado.');
    }
  };

  const owner = [ws.owner.firstName, ws.owner.lastName].filter(Boolean).join(' ');

  return (
    <div className="grid gap-6">
      <PageHeading title="General" workspace={ws.name} />
      <Card>
        <CardHeader>
          <CardTitle>Logo</CardTitle>
          <CardDescription>Aparece en el menú lateral y en los documentos del espacio.</CardDescription>
        </CardHeader>
        <CardContent>
          <WorkspaceLogoUpload workspace={ws} canEdit={canEdit} />
        </CardContent>
      </Card>
      <form onSubmit={(e) => void onSubmit(e)} noValidate>
        <Card>
          <CardHeader>
            <CardTitle>Datos del espacio</CardTitle>
            <CardDescription>
              {canEdit ? 'El nombre lo ven todos los miembros.' : 'Solo quien puede editar el perfil del espacio puede cambiarlos.'}
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-5 sm:grid-cols-2">
            {formError ? (
              <Alert variant="error" className="sm:col-span-2">
                {formError}
              </Alert>
            ) : null}
            <Field label="Nombre" error={error} className="sm:col-span-2">
              <Input value={name} onChange={(e) => setName(e.target.value)} readOnly={!canEdit} maxLength={80} />
            </Field>
            <Field label="Tipo de espacio" hint="Se elige al crearlo y decide los roles iniciales.">
              <Input value={TEMPLATE_LABELS[ws.template]} readOnly />
            </Field>
            <Field label="Propietario">
              <Input value={owner} readOnly />
            </Field>
          </CardContent>
          {canEdit ? (
            <CardFooter>
              <Button type="submit" loading={rename.isPending} disabled={name.trim() === ws.name}>
                Guardar cambios
              </Button>
            </CardFooter>
          ) : null}
        </Card>
      </form>
      {ws.isOwner ? <SecondFactorPolicyCard workspaceId={ws.id} /> : null}
    </div>
  );
}

export { WorkspaceGeneralRoute as Component };
