import { useState } from 'react';
import { Link, Outlet, useParams } from 'react-router';
import {
  CalendarDays,
  ChevronLeft,
  ClipboardList,
  FileSignature,
  FileText,
  FolderOpen,
  LayoutDashboard,
  MessagesSquare,
  NotebookPen,
  ReceiptText,
  Settings2,
  UserRound,
  UserRoundCog,
} from 'lucide-react';
import { canOn } from '@divan/core';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { usePageTitle } from '@/lib/use-page-title';
import { isApiError } from '@/lib/api-client';
import { usePatient } from '../api/patients-api';
import { useWorkspaceScope } from '../api/workspace';
import { AssignDialog } from '../components/assign-dialog';
import { ConnectAction } from '../connect/connect-action';

/**
 * The invitation mails the patient a link to `/p/connect/:token`, a page of the patient's companion,
 * which is not built yet (issue 15): until it is, the action stays hidden so no patient lands on a 404.
 */
const PATIENT_CONNECT_PAGE_READY: boolean = true;
import { StatusBadge } from '../components/status-badge';
import { Skeleton } from '../components/skeleton';
import { EmptyState, LoadError } from '@/components/ui/states';
import { patientName } from '../utils/format';
import type { PatientOutlet } from './patient-context';
import { PatientTabs } from './patient-tabs';

/** Only tabs whose feature exists and the member may see. */
function tabsFor(
  can: (
    a: 'read' | 'delete',
    s: 'patient_histories' | 'patient_documents' | 'patient_files' | 'sessions' | 'invoices' | 'sent_consents',
  ) => boolean,
) {
  return [
    { to: 'overview', label: 'Resumen', icon: LayoutDashboard, show: true },
    { to: 'info', label: 'Datos', icon: UserRound, show: true },
    { to: 'sessions', label: 'Sesiones', icon: CalendarDays, show: can('read', 'sessions') },
    { to: 'history', label: 'Historia clínica', icon: NotebookPen, show: can('read', 'patient_histories') },
    // Outcome measures are clinical data: the history's permission (issue 32).
    { to: 'measures', label: 'Cuestionarios', icon: ClipboardList, show: can('read', 'patient_histories') },
    // The chat is clinical: who reads the history reads it (spec §2 `chat`).
    { to: 'chat', label: 'Chat', icon: MessagesSquare, show: can('read', 'patient_histories') },
    { to: 'documents', label: 'Documentos', icon: FolderOpen, show: can('read', 'patient_documents') },
    { to: 'consents', label: 'Consentimientos', icon: FileSignature, show: can('read', 'sent_consents') },
    { to: 'billing', label: 'Facturación', icon: ReceiptText, show: can('read', 'invoices') },
    { to: 'settings', label: 'Ajustes', icon: Settings2, show: true },
  ].filter((t) => t.show);
}

export function PatientLayout() {
  const { patientId = '' } = useParams();
  const { workspace, ability } = useWorkspaceScope();
  const query = usePatient(workspace.id, patientId);
  usePageTitle(query.data ? patientName(query.data) : query.isError ? 'Paciente no encontrado' : 'Paciente');
  const [assigning, setAssigning] = useState(false);

  if (query.isError && !query.data) {
    const notFound = isApiError(query.error) && (query.error.status === 404 || query.error.code === 'invalid_argument');
    return (
      <div className="mx-auto grid max-w-3xl gap-4">
        <BackLink />
        {notFound ? (
          <div className="rounded-xl border bg-card">
            <EmptyState
              icon={<FileText aria-hidden />}
              title="Paciente no encontrado"
              text="Puede que se haya eliminado o que no tengas acceso a su ficha."
            >
              <Button asChild variant="outline">
                <Link to="/patients">Volver a pacientes</Link>
              </Button>
            </EmptyState>
          </div>
        ) : (
          <LoadError error={query.error} onRetry={() => void query.refetch()} what="la ficha del paciente" />
        )}
      </div>
    );
  }
  if (!query.data) return <DetailSkeleton />;

  const patient = query.data;
  const owner = { ownerId: patient.assignedTherapist?.id ?? null };
  // Sessions, invoices and sent consents are owned by their therapist, not by the patient's: any readable one shows the tab.
  const tabs = tabsFor((a, s) =>
    s === 'sessions' || s === 'sent_consents'
      ? ability.can(a, s)
      : s === 'invoices'
        ? ability.can(a, s) || ability.can(a, 'workspace_invoices')
        : canOn(ability, a, s, owner),
  );
  // In an Individual workspace every patient is the owner's: there is nobody else to assign.
  const canAssign = ability.can('update', 'patient_assignment') && workspace.template !== 'freelance';
  // Inviting the patient to their own account changes the file: who may update it.
  const canConnect = PATIENT_CONNECT_PAGE_READY && canOn(ability, 'update', 'patient_files', owner);
  const context: PatientOutlet = { patient };

  return (
    <div className="mx-auto grid w-full max-w-6xl gap-6">
      <BackLink />
      <header className="flex flex-wrap items-center gap-4">
        <Avatar name={patientName(patient)} className="size-14 text-lg" />
        <div className="grid min-w-0 flex-1 gap-1.5">
          <h1 className="truncate font-display text-2xl font-semibold tracking-tight sm:text-3xl">{patientName(patient)}</h1>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted-foreground">
            {/* The treatment status is clinical: absent for members who may not read treatment data. */}
            {patient.status ? <StatusBadge status={patient.status} /> : null}
            <span>
              Terapeuta: <span className="font-medium text-foreground">{patient.assignedTherapist?.name || 'Sin asignar'}</span>
            </span>
            {canAssign ? (
              <Button variant="link" size="none" className="text-sm" onClick={() => setAssigning(true)}>
                <UserRoundCog aria-hidden /> Asignar
              </Button>
            ) : null}
            {canConnect ? (
              <ConnectAction
                workspaceId={workspace.id}
                patientId={patient.id}
                patientName={patientName(patient)}
                patientEmail={patient.email}
              />
            ) : null}
          </div>
        </div>
      </header>
      <PatientTabs tabs={tabs} />
      <section className="min-w-0">
        <Outlet context={context} />
      </section>
      <AssignDialog
        target={assigning ? { id: patient.id, name: patientName(patient), therapistId: patient.assignedTherapist?.id ?? null } : null}
        onClose={() => setAssigning(false)}
      />
    </div>
  );
}

function BackLink() {
  return (
    <Link to="/patients" className="inline-flex w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
      <ChevronLeft className="size-4" aria-hidden /> Pacientes
    </Link>
  );
}

function DetailSkeleton() {
  return (
    <div className="mx-auto grid w-full max-w-6xl gap-6" aria-busy="true" aria-label="Cargando paciente">
      <Skeleton className="h-4 w-24" />
      <div className="flex items-center gap-4">
        <Skeleton className="size-14 rounded-full" />
        <div className="grid gap-2">
          <Skeleton className="h-7 w-64" />
          <Skeleton className="h-5 w-40" />
        </div>
      </div>
      <Skeleton className="h-10 w-full" />
      <Skeleton className="h-64 w-full rounded-xl" />
    </div>
  );
}

export { PatientLayout as Component };
