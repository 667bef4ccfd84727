import { MessagesSquare } from 'lucide-react';
import { EmptyState } from '@/components/ui/states';

/** `/chats` on a wide screen: the conversation's place, until one is chosen. */
export function ChatsIndex() {
  return (
    <div className="grid flex-1 place-items-center bg-muted/40">
      <EmptyState
        icon={<MessagesSquare aria-hidden />}
        title="Elige una conversación"
        text="Los mensajes de tus pacientes aparecen a la izquierda; los que no has leído, en «Sin leer»."
      />
    </div>
  );
}

export { ChatsIndex as Component };
