import type { ChatMessage } from '@divan/core';

/** Keyset order of the chat (`<epoch ms>_<uuid>`, decision 0022): by instant, then id. */
function key(m: ChatMessage): [number, string] {
  const [ms, id] = m.cursor.split('_');
  return [Number(ms), id ?? m.id];
}

/** The conversation oldest first, each message once whichever way it came (page, live, catch-up). */
export function mergeMessages(current: readonly ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  const byId = new Map(current.map((m) => [m.id, m]));
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => {
    const [ta, ia] = key(a);
    const [tb, ib] = key(b);
    return ta - tb || (ia < ib ? -1 : ia > ib ? 1 : 0);
  });
}

/** The newest message the therapist's side sent: what marking read goes up to. */
export function lastFromPeer(messages: readonly ChatMessage[]): ChatMessage | null {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.sender.kind === 'member') return messages[i]!;
  return null;
}
