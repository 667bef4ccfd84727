import { useId } from 'react';
import { Link } from 'react-router';
import { MessagesSquare } from 'lucide-react';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { ListStates } from '@/components/ui/list-states';
import { useChatCounters, useChatList } from '../api/chat-api';
import { badgeText, unreadBeyond, unreadOf } from '../model/counters';
import { listTime, preview } from '../model/messages';

/** The dashboard shows the first few; «Abrir los chats» has the rest. */
const SHOWN = 5;
const UNREAD = { tab: 'unread', q: '', page: 1 } as const;

/**
 * «Mensajes sin leer» on the dashboard: the patients whose messages wait, with how many and a link to
 * the conversation. The same list and live counters as `/chats` (the shell's socket keeps them
 * current), so a conversation read elsewhere leaves the card at once. Loaded lazily by the dashboard
 * for members who read chats.
 */
export function UnreadChatsCard({ workspaceId: wid }: { workspaceId: string }) {
  const list = useChatList(wid, UNREAD);
  const counters = useChatCounters(wid, true);
  const ids = useId();
  const rows = (list.data?.items ?? [])
    .map((c) => ({ ...c, n: unreadOf(counters.data, c.patientFileId, c.unread) }))
    .filter((c) => c.n > 0);
  const more = list.data ? list.data.total - list.data.items.length : 0;
  // «Sin leer» lists active patients; what the counters hold beyond them is from paused or discharged ones.
  const others =
    list.data && more <= 0
      ? unreadBeyond(
          counters.data,
          rows.map((c) => c.n),
        )
      : 0;

  return (
    <Card role="region" aria-labelledby={`${ids}-title`}>
      <CardHeader className="flex flex-wrap items-center justify-between gap-2">
        <CardTitle id={`${ids}-title`} className="flex items-center gap-2">
          <MessagesSquare className="size-4 text-primary" aria-hidden /> Mensajes sin leer
        </CardTitle>
        {list.data && rows.length ? (
          <span className="text-[0.8125rem] text-muted-foreground">
            {rows.length + more === 1 ? '1 paciente' : `${rows.length + more} pacientes`}
          </span>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-3">
        <ListStates
          query={list}
          failed="No se pudieron cargar los mensajes sin leer."
          loading="Cargando mensajes…"
          empty={rows.length === 0 && others <= 0 ? 'No tienes mensajes sin leer.' : null}
        >
          {rows.length === 0 ? null : (
            <ul className="-mx-2 grid" aria-label="Pacientes con mensajes sin leer">
              {rows.slice(0, SHOWN).map((c) => (
                <li key={c.patientFileId}>
                  <Link
                    to={`/chats/${c.patientFileId}`}
                    className="flex items-center gap-3 rounded-lg px-2 py-2 outline-none hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring"
                  >
                    <Avatar name={c.patientName} className="size-9" />
                    <span className="grid min-w-0 flex-1 gap-0.5">
                      <span className="flex items-baseline justify-between gap-2">
                        <span className="min-w-0 truncate text-sm font-semibold">{c.patientName}</span>
                        <time dateTime={c.lastMessage.createdAt} className="shrink-0 text-xs tabular-nums text-muted-foreground">
                          {listTime(c.lastMessage.createdAt)}
                        </time>
                      </span>
                      <span className="min-w-0 truncate text-[0.8125rem] text-muted-foreground">{preview(c.lastMessage.body)}</span>
                    </span>
                    <span className="min-w-5 shrink-0 rounded-full bg-primary px-1.5 py-0.5 text-center text-xs font-semibold tabular-nums text-primary-foreground">
                      <span aria-hidden>{badgeText(c.n)}</span>
                      <span className="sr-only">, {c.n === 1 ? '1 mensaje sin leer' : `${c.n} mensajes sin leer`}</span>
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </ListStates>
        {list.data && others > 0 ? (
          <Link to="/chats?tab=inactive" className="text-sm font-medium text-primary underline-offset-2 hover:underline">
            {others === 1 ? '1 mensaje sin leer' : `${others} mensajes sin leer`} de pacientes en pausa o de alta
          </Link>
        ) : null}
        <div>
          <Button asChild variant="outline" size="sm">
            <Link to="/chats">Abrir los chats</Link>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
