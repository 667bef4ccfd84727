import { lazy, Suspense, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { FileSpreadsheet, Plus, SearchX, Users } from 'lucide-react';
import { canAny, type PatientSummary } from '@divan/core';
import { Button } from '@/components/ui/button';
import { usePatientList, useTherapists } from '../api/patients-api';
import { useWorkspaceScope } from '../api/workspace';
import { AssignDialog } from '../components/assign-dialog';
import { EmptyState, LoadError } from '@/components/ui/states';
import { patientName, plural } from '../utils/format';
import { CreatePatientDialog } from './create-patient-dialog';
import { ListFilters } from './list-filters';
import { hasFilters, PAGE_SIZE, toQuery, type Sort } from './list-params';
import { Pagination } from '@/components/ui/pagination';
import { PatientsTable, PatientsTableSkeleton } from './patients-table';
import { StatusTabs } from './status-tabs';
import { useListState } from './use-list-state';
import { usePageTitle } from '@/lib/use-page-title';

const loadWizard = () => import('../import/import-wizard');
const ImportWizard = lazy(() => loadWizard().then((m) => ({ default: m.ImportWizard })));

export function PatientsListRoute() {
  usePageTitle('Pacientes');
  const { workspace, ability } = useWorkspaceScope();
  const [state, update] = useListState();
  const [params, setParams] = useSearchParams();
  const list = usePatientList(workspace.id, toQuery(state));
  const canCreate = canAny(ability, 'create', 'patient_files');
  // In an Individual workspace every patient is the owner's: there is nobody else to assign.
  const canAssign = ability.can('update', 'patient_assignment') && workspace.template !== 'freelance';
  // Without treatment data (Recepción) there are no status tabs nor treatment filters: the server refuses them.
  const readsTreatment = canAny(ability, 'read', 'patient_treatment');
  const therapists = useTherapists(workspace.id, ability.can('read', 'members'));
  // In a one-person practice every patient is theirs: a therapist column would only say so 50 times.
  const team = (therapists.data?.length ?? 0) > 1;

  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const [assigning, setAssigning] = useState<PatientSummary | null>(null);

  // "Crear paciente" from the command palette lands here with ?create=1.
  useEffect(() => {
    if (params.get('create') === '1') {
      if (canCreate) setCreating(true);
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.delete('create');
          return next;
        },
        { replace: true },
      );
    }
  }, [params, setParams, canCreate]);

  const onSort = (sort: Sort) => update({ sort, dir: state.sort === sort && state.dir === 'asc' ? 'desc' : 'asc' });
  const data = list.data;
  // Counts per status only come to those who read treatment data; the others get the total.
  const everything = data ? (data.counts ? data.counts.active + data.counts.paused + data.counts.inactive : data.total) : 0;
  const noPatientsAtAll = data && everything === 0 && !hasFilters(state);

  const actions = canCreate ? (
    <>
      <Button
        className="flex-1 sm:flex-none"
        variant="outline"
        onClick={() => setImporting(true)}
        onPointerEnter={() => void loadWizard()}
        onFocus={() => void loadWizard()}
      >
        <FileSpreadsheet aria-hidden /> Importar desde Excel
      </Button>
      <Button className="flex-1 sm:flex-none" onClick={() => setCreating(true)}>
        <Plus aria-hidden /> Nuevo paciente
      </Button>
    </>
  ) : null;

  return (
    <div className="mx-auto grid w-full max-w-7xl grid-cols-[minmax(0,1fr)] gap-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="grid gap-1">
          <h1 className="font-display text-3xl font-semibold tracking-tight">Pacientes</h1>
          <p className="text-sm text-muted-foreground">
            {!data || noPatientsAtAll
              ? '\u00a0'
              : hasFilters(state)
                ? plural(everything, 'paciente coincide con la búsqueda', 'pacientes coinciden con la búsqueda')
                : plural(everything, 'paciente en tu consulta', 'pacientes en tu consulta')}
          </p>
        </div>
        {noPatientsAtAll ? null : <div className="flex w-full flex-wrap gap-2 sm:w-auto">{actions}</div>}
      </header>

      {noPatientsAtAll ? (
        <div className="rounded-xl border border-dashed bg-card">
          <EmptyState
            icon={<Users aria-hidden />}
            title="Aún no tienes pacientes"
            text="Crea tu primer paciente o importa tu listado desde un Excel: lo revisas antes de confirmar."
          >
            {actions}
          </EmptyState>
        </div>
      ) : (
        <>
          <div className="grid gap-4">
            {readsTreatment ? <StatusTabs value={state.status} counts={data?.counts} onChange={(status) => update({ status })} /> : null}
            <ListFilters state={state} update={update} therapists={team ? (therapists.data ?? null) : null} treatment={readsTreatment} />
          </div>
          <section
            id="patients-panel"
            role="tabpanel"
            aria-label="Listado de pacientes"
            aria-busy={list.isFetching}
            className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-4"
          >
            {list.isError && !data ? (
              <LoadError error={list.error} onRetry={() => void list.refetch()} what="el listado de pacientes" />
            ) : !data ? (
              <PatientsTableSkeleton />
            ) : data.items.length === 0 ? (
              <div className="rounded-xl border bg-card">
                <EmptyState
                  icon={<SearchX aria-hidden />}
                  title="Ningún paciente coincide"
                  text="Prueba con otra búsqueda u otros filtros."
                >
                  {hasFilters(state) ? (
                    <Button variant="outline" onClick={() => update({ q: '', therapist: null, sessionType: null, motive: null })}>
                      Limpiar filtros
                    </Button>
                  ) : null}
                </EmptyState>
              </div>
            ) : (
              <div className={list.isPlaceholderData ? 'opacity-60 transition-opacity' : 'transition-opacity'}>
                <PatientsTable
                  items={data.items}
                  state={state}
                  onSort={onSort}
                  showTherapist={team}
                  onAssign={canAssign ? setAssigning : null}
                />
              </div>
            )}
            {data && data.total > 0 ? (
              <Pagination page={state.page} pageSize={PAGE_SIZE} total={data.total} onPage={(page) => update({ page })} />
            ) : null}
          </section>
        </>
      )}

      {canCreate ? <CreatePatientDialog open={creating} onOpenChange={setCreating} /> : null}
      {importing ? (
        <Suspense fallback={null}>
          <ImportWizard open={importing} onOpenChange={setImporting} />
        </Suspense>
      ) : null}
      <AssignDialog
        target={assigning ? { id: assigning.id, name: patientName(assigning), therapistId: assigning.assignedTherapist?.id ?? null } : null}
        onClose={() => setAssigning(null)}
      />
    </div>
  );
}

export { PatientsListRoute as Component };
