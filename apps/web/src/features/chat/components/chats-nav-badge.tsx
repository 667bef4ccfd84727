import { useChatUnreadTotal } from '../api/use-chat-live';
import { badgeText } from '../model/counters';

/** The unread count on the sidebar's «Chats» (a dot when the sidebar is collapsed); nothing at zero. */
export function ChatsNavBadge({ collapsed = false }: { collapsed?: boolean }) {
  const total = useChatUnreadTotal();
  if (total === 0) return null;
  const label = total === 1 ? '1 mensaje sin leer' : `${total} mensajes sin leer`;
  return (
    <>
      {collapsed ? (
        <span aria-hidden className="absolute right-2 top-1.5 size-2.5 rounded-full bg-primary ring-2 ring-sidebar" />
      ) : (
        <span
          aria-hidden
          data-testid="chats-badge"
          className="ml-auto min-w-5 rounded-full bg-primary px-1.5 py-0.5 text-center text-xs font-semibold tabular-nums text-primary-foreground"
        >
          {badgeText(total)}
        </span>
      )}
      <span className="sr-only">, {label}</span>
    </>
  );
}
