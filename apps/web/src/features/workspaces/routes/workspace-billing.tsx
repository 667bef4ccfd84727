import { useEffect, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { billingInfo, nextInvoiceText, type BillingInfo } from '@divan/core';
import { AddressFields } from '@/components/address-fields';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { NoAccess } from '@/components/ui/no-access';
import { PageHeading } from '@/components/ui/page-heading';
import { PageSpinner } from '@/components/ui/spinner';
import { useAbility } from '@/lib/ability';
import { PARTY_FIELDS } from '@/lib/address-form';
import { isApiError } from '@/lib/api-client';
import { useSaveForm } from '@/lib/use-save-form';
import { workspacesQueryKey } from '@/lib/workspace-keys';
import { isRealWorkspace, useCurrentWorkspace } from '@/stores/workspaces-store';
import { useBillingInfo, useUpdateBillingInfo, useWorkspaceInvoiceSeries } from '../api/workspaces-api';
import { useUnsavedChanges } from '@/lib/unsaved-changes';
import { usePageTitle } from '@/lib/use-page-title';

type Form = z.input<typeof billingInfo>;
const names = [...PARTY_FIELDS, 'footer', 'seriesPrefix'] as const;
const toForm = (b: BillingInfo): Form => Object.fromEntries(names.map((n) => [n, b[n] ?? ''])) as Form;

function BillingForm({ workspaceId, info, canEdit }: { workspaceId: string; info: BillingInfo; canEdit: boolean }) {
  const update = useUpdateBillingInfo(workspaceId);
  const form = useForm<Form, unknown, BillingInfo>({ resolver: zodResolver(billingInfo), values: toForm(info) });
  const { errors, isDirty, isSubmitting } = form.formState;
  useUnsavedChanges(isDirty);
  const { onSubmit, formError } = useSaveForm(form, { save: update.mutateAsync, success: 'Datos de facturación guardados', fields: names });

  const field = (name: (typeof names)[number]) => ({ ...form.register(name), readOnly: !canEdit });
  // The next number from the series' counter (after 2026-0001, 2026-0002), for the prefix being typed.
  const series = useWorkspaceInvoiceSeries(workspaceId, true);
  const next = series.data ? nextInvoiceText(form.watch('seriesPrefix') ?? '', series.data, 'workspace') : null;

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate>
      <Card>
        <CardHeader>
          <CardTitle>Datos fiscales del espacio</CardTitle>
          <CardDescription>Aparecen en las facturas que emite el espacio (no en las de cada terapeuta).</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5 sm:grid-cols-2">
          {formError ? (
            <Alert variant="error" className="sm:col-span-2">
              {formError}
            </Alert>
          ) : null}
          <Field label="Nombre o razón social" error={errors.fullName?.message}>
            <Input autoComplete="organization" {...field('fullName')} />
          </Field>
          <Field label="NIF / CIF" error={errors.taxId?.message}>
            <Input autoCapitalize="characters" {...field('taxId')} />
          </Field>
          <AddressFields
            input={field}
            error={(n) => errors[n]?.message}
            wide
            autofill
            line2Placeholder="Piso, puerta, oficina…"
            countryPlaceholder="España"
            cityFirst
          />
          <Field
            label="Prefijo de serie"
            error={errors.seriesPrefix?.message}
            hint={`${next ?? 'La próxima factura del espacio será la …'} Cambiarlo empieza una serie nueva, también sin saltos.`}
          >
            <Input autoCapitalize="characters" maxLength={10} placeholder="Sin prefijo" {...field('seriesPrefix')} />
          </Field>
          <Field
            label="Pie de factura"
            error={errors.footer?.message}
            hint="Texto al final de cada factura: datos de inscripción, exención de IVA, etc."
            className="sm:col-span-2"
          >
            <Textarea {...field('footer')} />
          </Field>
        </CardContent>
        {canEdit ? (
          <CardFooter>
            <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
              Guardar cambios
            </Button>
          </CardFooter>
        ) : null}
      </Card>
    </form>
  );
}

/** `children`: more of the page, shown to whoever may read it (the Stripe account's card, from the billing feature). */
export function WorkspaceBillingRoute({ children }: { children?: ReactNode }) {
  usePageTitle('Facturación del espacio');
  const ws = useCurrentWorkspace();
  const ability = useAbility();
  const canRead = ability.can('read', 'workspace_billing');
  const info = useBillingInfo(ws.id, isRealWorkspace(ws.id) && canRead);
  const queryClient = useQueryClient();
  const denied = isApiError(info.error) && info.error.code === 'access_denied';

  // The server knows better than our copy of the permissions: refresh them.
  useEffect(() => {
    if (denied) void queryClient.invalidateQueries({ queryKey: workspacesQueryKey });
  }, [denied, queryClient]);

  if (!isRealWorkspace(ws.id)) return <PageSpinner />;
  if (!canRead || denied) return <NoAccess title="Sin acceso a la facturación del espacio" />;

  return (
    <div className="grid gap-6">
      <PageHeading title="Facturación" workspace={ws.name} />
      {info.data ? (
        <BillingForm key={ws.id} workspaceId={ws.id} info={info.data} canEdit={ability.can('update', 'workspace_billing')} />
      ) : info.isError ? (
        <Alert variant="error">{info.error.message}</Alert>
      ) : (
        <PageSpinner />
      )}
      {children}
    </div>
  );
}

export { WorkspaceBillingRoute as Component };
