import { Link, useLocation, useOutletContext, useParams } from 'react-router';
import { ChevronLeft, FileText, UserRound } from 'lucide-react';
import { canOn } from '@divan/core';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { EmptyState, LoadError } from '@/components/ui/states';
import { isApiError } from '@/lib/api-client';
import { useAbility } from '@/lib/ability';
import { usePageTitle } from '@/lib/use-page-title';
import { useChatPatient } from '../api/chat-api';
import { Conversation } from '../components/conversation';
import type { ChatsOutlet } from './chats-layout';

/** `/chats/:id` (the patient file's id): the conversation with its patient, a way back on phones and to the file. */
export function ChatRoute() {
  const { patientFileId = '' } = useParams();
  const { wid, userId } = useOutletContext<ChatsOutlet>();
  const ability = useAbility();
  const patient = useChatPatient(wid, patientFileId);
  const name = patient.data ? [patient.data.firstName, patient.data.lastName].filter(Boolean).join(' ') : '';
  usePageTitle(name || (patient.isError ? 'Conversación no encontrada' : null), 'Chats');

  if (patient.isError) {
    const missing =
      isApiError(patient.error) &&
      (patient.error.status === 404 || patient.error.status === 403 || patient.error.code === 'invalid_argument');
    return (
      <div className="grid flex-1 content-start gap-3 p-4">
        <BackToList />
        {missing ? (
          <EmptyState
            icon={<FileText aria-hidden />}
            title="Conversación no encontrada"
            text="Puede que el paciente se haya eliminado o que no tengas acceso a su ficha."
          >
            <Button asChild variant="outline">
              <Link to="/chats">Volver a los chats</Link>
            </Button>
          </EmptyState>
        ) : (
          <LoadError error={patient.error} onRetry={() => void patient.refetch()} what="la conversación" />
        )}
      </div>
    );
  }
  if (!patient.data) {
    return (
      <div className="grid flex-1 place-items-center">
        <Spinner label="Cargando conversación" />
      </div>
    );
  }
  const owner = { ownerId: patient.data.assignedTherapist?.id ?? null };
  const canWrite = canOn(ability, 'create', 'patient_histories', owner);
  const canAttach = canOn(ability, 'create', 'patient_documents', owner) && canOn(ability, 'update', 'patient_documents', owner);
  const header = (
    <header className="flex items-center gap-2 border-b bg-card px-2 py-2 sm:px-4">
      <BackToList compact />
      <Avatar name={name} className="size-9" />
      <h2 className="min-w-0 flex-1 truncate text-base font-semibold">{name}</h2>
      <Button asChild variant="ghost" size="sm">
        <Link to={`/patients/${patientFileId}/overview`}>
          <UserRound aria-hidden /> <span className="hidden sm:inline">Ver ficha</span>
          <span className="sr-only sm:hidden">Ver ficha de {name}</span>
        </Link>
      </Button>
    </header>
  );
  return (
    <Conversation
      key={patientFileId}
      wid={wid}
      pid={patientFileId}
      patientName={name}
      userId={userId}
      canWrite={canWrite}
      canAttach={canAttach}
      header={header}
      className="flex-1"
    />
  );
}

/** Back to the list on a phone (on a wide screen the list is beside the conversation). */
function BackToList({ compact = false }: { compact?: boolean }) {
  const { search } = useLocation();
  return (
    <Link
      to={{ pathname: '/chats', search }}
      className={
        compact
          ? 'inline-grid size-9 shrink-0 place-items-center rounded-md text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring md:hidden'
          : 'inline-flex w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground md:hidden'
      }
      aria-label={compact ? 'Volver a los chats' : undefined}
    >
      <ChevronLeft className="size-5" aria-hidden />
      {compact ? null : 'Chats'}
    </Link>
  );
}

export { ChatRoute as Component };
