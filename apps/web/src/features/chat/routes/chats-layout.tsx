import { Link, Outlet, useParams } from 'react-router';
import { Clock } from 'lucide-react';
import { NoAccess } from '@/components/ui/no-access';
import { PageSpinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { usePageTitle } from '@/lib/use-page-title';
import { useAuthStore } from '@/stores/auth-store';
import { isRealWorkspace, useCurrentWorkspace } from '@/stores/workspaces-store';
import { useReadsChats } from '../api/use-chat-live';
import { ChatList } from '../components/chat-list';
import { useFillHeight } from '../components/use-fill-height';

export type ChatsOutlet = { wid: string; userId: string };

/**
 * `/chats` and `/chats/:id`: the list beside the conversation on a wide screen; on a phone, the list
 * or the conversation (with its way back).
 */
export function ChatsLayout() {
  const { patientFileId = null } = useParams();
  const workspace = useCurrentWorkspace();
  const userId = useAuthStore((s) => s.userId) ?? '';
  const reads = useReadsChats();
  usePageTitle(patientFileId ? null : 'Chats');

  if (!isRealWorkspace(workspace.id)) return <PageSpinner />;
  if (!reads) {
    return (
      <div className="mx-auto grid w-full max-w-3xl gap-6">
        <h1 className="font-display text-3xl font-semibold tracking-tight">Chats</h1>
        <NoAccess title="No tienes acceso a los chats">
          Los chats con pacientes son parte de su historia clínica y tus roles en este espacio no incluyen leerla. Si lo necesitas, pídeselo
          a quien administra el espacio.
        </NoAccess>
      </div>
    );
  }
  return <ChatsScreen key={workspace.id} wid={workspace.id} workspaceName={workspace.name} userId={userId} patientFileId={patientFileId} />;
}

function ChatsScreen({
  wid,
  workspaceName,
  userId,
  patientFileId,
}: {
  wid: string;
  workspaceName: string;
  userId: string;
  patientFileId: string | null;
}) {
  const [box, height] = useFillHeight<HTMLDivElement>(patientFileId === null);
  const outlet: ChatsOutlet = { wid, userId };
  return (
    <div className="mx-auto grid w-full max-w-6xl gap-4 md:gap-6">
      <header className={cn('flex flex-wrap items-end justify-between gap-3', patientFileId && 'hidden md:flex')}>
        <div className="grid gap-1">
          <h1 className="font-display text-3xl font-semibold tracking-tight">Chats</h1>
          <p className="text-sm text-muted-foreground">Mensajes con tus pacientes en «{workspaceName}».</p>
        </div>
        <Link
          to="/settings/notifications"
          className="inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-primary hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        >
          <Clock className="size-4" aria-hidden /> Horario de atención
        </Link>
      </header>
      <div
        ref={box}
        style={{ height }}
        className="flex overflow-hidden md:grid md:grid-cols-[20rem_minmax(0,1fr)] md:rounded-xl md:border md:bg-card md:shadow-xs lg:grid-cols-[24rem_minmax(0,1fr)]"
      >
        <aside
          aria-label="Lista de conversaciones"
          className={cn(
            'min-h-0 flex-1 flex-col overflow-hidden rounded-xl border bg-card md:rounded-none md:border-0 md:border-r',
            patientFileId ? 'hidden md:flex' : 'flex',
          )}
        >
          <ChatList wid={wid} selectedId={patientFileId} />
        </aside>
        <div
          className={cn(
            'min-h-0 min-w-0 flex-1 flex-col overflow-hidden rounded-xl border bg-card md:rounded-none md:border-0',
            patientFileId ? 'flex' : 'hidden md:flex',
          )}
        >
          <Outlet context={outlet} />
        </div>
      </div>
    </div>
  );
}

export { ChatsLayout as Component };
