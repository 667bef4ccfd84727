import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { createWorkspaceBody, defaultWorkspaceName, type WorkspaceTemplate } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { isApiError } from '@/lib/api-client';
import { useAuthStore } from '@/stores/auth-store';
import { useCreateWorkspace } from '../api/workspaces-api';
import { TemplatePicker } from '../components/template-picker';
import { usePageTitle } from '@/lib/use-page-title';

export function CreateWorkspaceRoute() {
  usePageTitle('Crear espacio de trabajo');
  const firstName = useAuthStore((s) => s.profile?.firstName ?? '');
  const navigate = useNavigate();
  const create = useCreateWorkspace();
  const [template, setTemplate] = useState<WorkspaceTemplate>('team');
  // The name follows the template ("Equipo de Ana") until the user writes their own.
  const [customName, setCustomName] = useState<string | null>(null);
  const name = customName ?? defaultWorkspaceName(template, firstName);
  const [nameError, setNameError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setNameError(undefined);
    setFormError(null);
    const parsed = createWorkspaceBody.safeParse({ name, template });
    if (!parsed.success) {
      setNameError(parsed.error.issues[0]?.message);
      document.getElementById('workspace-name')?.focus();
      return;
    }
    try {
      const ws = await create.mutateAsync(parsed.data);
      await navigate(`/workspaces/create/success?workspace=${ws.id}`, { replace: true });
    } catch (error) {
      if (isApiError(error) && error.code === 'workspace_already_exists') {
        setNameError(error.message);
        document.getElementById('workspace-name')?.focus();
      } else setFormError(isApiError(error) ? error.message : 'Error inesperado.');
    }
  };

  return (
    <div className="grid gap-8">
      <div className="grid gap-3">
        <Button asChild variant="ghost" size="sm" className="-ml-3 justify-self-start">
          <Link to="/">
            <ArrowLeft aria-hidden /> Volver
          </Link>
        </Button>
        <h1 className="font-display text-3xl font-semibold tracking-tight">Crea un espacio de trabajo</h1>
        <p className="text-[0.9375rem] leading-relaxed text-muted-foreground">
          Un espacio reúne tus pacientes, su historia clínica y sus documentos. Elige cómo trabajas: en un Equipo o una Clínica podrás
          invitar a más personas después.
        </p>
      </div>
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-6">
        {formError ? <Alert variant="error">{formError}</Alert> : null}
        <TemplatePicker value={template} onChange={setTemplate} />
        <Field label="Nombre del espacio" error={nameError} hint="Lo verán los miembros que invites. Puedes cambiarlo más adelante.">
          <Input
            id="workspace-name"
            value={name}
            maxLength={80}
            onChange={(e) => setCustomName(e.target.value)}
            autoComplete="organization"
          />
        </Field>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button asChild variant="outline" size="lg">
            <Link to="/">Cancelar</Link>
          </Button>
          <Button type="submit" size="lg" loading={create.isPending}>
            Crear espacio
          </Button>
        </div>
      </form>
    </div>
  );
}

export { CreateWorkspaceRoute as Component };
