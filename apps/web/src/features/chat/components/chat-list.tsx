import { useCallback, useMemo, useRef, type KeyboardEvent } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { Inbox, SearchX } from 'lucide-react';
import { CHAT_TABS, type ChatTab } from '@divan/core';
import { Avatar } from '@/components/ui/avatar';
import { Pagination } from '@/components/ui/pagination';
import { SearchInput } from '@/components/ui/search-input';
import { EmptyState, LoadError } from '@/components/ui/states';
import { cn } from '@/lib/cn';
import { CHAT_LIST_PAGE_SIZE, useChatCounters, useChatList, type ChatList as ChatListData } from '../api/chat-api';
import { badgeText, unreadOf } from '../model/counters';
import { readChatListState, TAB_LABELS, writeChatListState, type ChatListState } from '../model/list-params';
import { listTime, preview } from '../model/messages';

const EMPTY: Record<ChatTab, { title: string; text: string }> = {
  unread: { title: 'Todo leído', text: 'No tienes mensajes sin leer de tus pacientes.' },
  read: { title: 'Sin conversaciones', text: 'Aquí aparecen las conversaciones con pacientes activos que ya has leído.' },
  inactive: { title: 'Sin conversaciones', text: 'Aquí aparecen las conversaciones con pacientes en pausa o dados de alta.' },
};

/** The conversations: «Sin leer», «Leídos», «Pacientes inactivos», a search and pages; the state lives in the address. */
export function ChatList({ wid, selectedId }: { wid: string; selectedId: string | null }) {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readChatListState(params), [params]);
  const update = useCallback(
    (patch: Partial<ChatListState>, replace = false) =>
      setParams((prev) => writeChatListState({ ...readChatListState(prev), page: 1, ...patch }), { replace }),
    [setParams],
  );
  // Typing updates the address once the user pauses (replacing, so Back does not replay every key).
  const onSearch = useCallback((q: string) => update({ q: q.trim() }, true), [update]);
  const list = useChatList(wid, state);
  const counters = useChatCounters(wid, true);

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="grid gap-3 border-b px-3 pt-3 sm:px-4">
        <SearchInput value={state.q} onSearch={onSearch} placeholder="Buscar paciente" aria-label="Buscar conversaciones por paciente" />
        <Tabs value={state.tab} onChange={(tab) => update({ tab })} />
      </div>
      <div
        id="chat-list-panel"
        role="tabpanel"
        aria-label={TAB_LABELS[state.tab]}
        aria-busy={list.isFetching}
        className="min-h-0 flex-1 overflow-y-auto"
      >
        {list.isError && !list.data ? (
          <div className="p-3">
            <LoadError error={list.error} onRetry={() => void list.refetch()} what="las conversaciones" />
          </div>
        ) : !list.data ? (
          <ListSkeleton />
        ) : list.data.items.length === 0 ? (
          state.q ? (
            <EmptyState icon={<SearchX aria-hidden />} title="Ninguna conversación coincide" text="Prueba con otro nombre." />
          ) : (
            <EmptyState icon={<Inbox aria-hidden />} title={EMPTY[state.tab].title} text={EMPTY[state.tab].text} />
          )
        ) : (
          <Rows data={list.data} selectedId={selectedId} unread={(id, n) => unreadOf(counters.data, id, n)} dim={list.isPlaceholderData} />
        )}
      </div>
      {list.data && list.data.total > CHAT_LIST_PAGE_SIZE ? (
        <div className="border-t px-3 py-2 sm:px-4">
          <Pagination page={state.page} pageSize={CHAT_LIST_PAGE_SIZE} total={list.data.total} onPage={(page) => update({ page })} />
        </div>
      ) : null}
    </div>
  );
}

function Rows({
  data,
  selectedId,
  unread,
  dim,
}: {
  data: ChatListData;
  selectedId: string | null;
  unread: (id: string, fromList: number) => number;
  dim: boolean;
}) {
  const { search } = useLocation();
  return (
    <ul className={cn('divide-y transition-opacity', dim && 'opacity-60')}>
      {data.items.map((c) => {
        const n = unread(c.patientFileId, c.unread);
        const selected = c.patientFileId === selectedId;
        return (
          <li key={c.patientFileId}>
            <Link
              to={{ pathname: `/chats/${c.patientFileId}`, search }}
              aria-current={selected ? 'page' : undefined}
              className={cn(
                'flex items-center gap-3 px-3 py-3 outline-none hover:bg-muted focus-visible:bg-muted focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring sm:px-4',
                selected && 'bg-accent/60 hover:bg-accent/60',
              )}
            >
              <Avatar name={c.patientName} className="size-10" />
              <span className="flex min-w-0 flex-1 flex-col gap-0.5">
                <span className="flex items-baseline justify-between gap-2">
                  <span className={cn('min-w-0 truncate text-sm', n > 0 ? 'font-semibold' : 'font-medium')}>{c.patientName}</span>
                  <time
                    dateTime={c.lastMessage.createdAt}
                    className={cn('shrink-0 text-xs tabular-nums', n > 0 ? 'font-semibold text-primary' : 'text-muted-foreground')}
                  >
                    {listTime(c.lastMessage.createdAt)}
                  </time>
                </span>
                <span className="flex items-center justify-between gap-2">
                  <span className={cn('min-w-0 truncate text-[0.8125rem]', n > 0 ? 'text-foreground' : 'text-muted-foreground')}>
                    {c.lastMessage.senderKind === 'member' ? <span className="text-muted-foreground">Tú: </span> : null}
                    {preview(c.lastMessage.body)}
                  </span>
                  {n > 0 ? (
                    <span className="min-w-5 shrink-0 rounded-full bg-primary px-1.5 py-0.5 text-center text-xs font-semibold tabular-nums text-primary-foreground">
                      <span aria-hidden>{badgeText(n)}</span>
                      <span className="sr-only">{n === 1 ? '1 mensaje sin leer' : `${n} mensajes sin leer`}</span>
                    </span>
                  ) : null}
                </span>
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/** Arrow keys move between the tabs, as in the patients list. */
function Tabs({ value, onChange }: { value: ChatTab; onChange: (t: ChatTab) => void }) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (e: KeyboardEvent, i: number) => {
    const delta = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!delta) return;
    e.preventDefault();
    const next = (i + delta + CHAT_TABS.length) % CHAT_TABS.length;
    refs.current[next]?.focus();
    onChange(CHAT_TABS[next]!);
  };
  return (
    <div role="tablist" aria-label="Conversaciones" className="-mx-3 flex gap-1 overflow-x-auto px-3 sm:-mx-4 sm:px-4">
      {CHAT_TABS.map((tab, i) => {
        const selected = tab === value;
        return (
          <button
            key={tab}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="tab"
            aria-selected={selected}
            aria-controls="chat-list-panel"
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(tab)}
            onKeyDown={(e) => onKeyDown(e, i)}
            className={cn(
              '-mb-px flex h-10 shrink-0 items-center border-b-2 px-2.5 text-sm font-medium transition-colors',
              selected ? 'border-primary text-foreground' : 'border-transparent text-muted-foreground hover:text-foreground',
            )}
          >
            {TAB_LABELS[tab]}
          </button>
        );
      })}
    </div>
  );
}

function ListSkeleton() {
  return (
    <ul aria-label="Cargando conversaciones" className="divide-y">
      {[0, 1, 2, 3].map((i) => (
        <li key={i} className="flex items-center gap-3 px-4 py-3">
          <span className="size-10 animate-pulse rounded-full bg-muted" />
          <span className="grid flex-1 gap-2">
            <span className="h-3.5 w-2/5 animate-pulse rounded bg-muted" />
            <span className="h-3 w-4/5 animate-pulse rounded bg-muted" />
          </span>
        </li>
      ))}
    </ul>
  );
}
