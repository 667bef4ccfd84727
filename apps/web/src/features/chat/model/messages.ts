import { compareChatCursors, decodeChatCursor, type ChatMessage } from '@divan/core';

/** Older first by the server's keyset cursor (created_at, id); a message without a readable cursor goes last. */
function compareMessages(a: ChatMessage, b: ChatMessage): number {
  const ca = decodeChatCursor(a.cursor);
  const cb = decodeChatCursor(b.cursor);
  if (!ca || !cb) return ca ? -1 : cb ? 1 : 0;
  return compareChatCursors(ca, cb);
}

/**
 * The conversation on screen, oldest first, with `incoming` added: a page of older messages, a
 * catch-up page, the answer to a send or a live event, in any order and any number of times. A
 * message already there (same id) is replaced by the newer copy, never shown twice.
 */
export function mergeMessages(current: readonly ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  if (incoming.length === 0) return current as ChatMessage[];
  const byId = new Map<string, ChatMessage>();
  for (const m of current) byId.set(m.id, m);
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort(compareMessages);
}

/** The cursor of the newest message (where a catch-up with `after` starts), or null when there is none. */
export function newestCursor(messages: readonly ChatMessage[]): string | null {
  return messages.at(-1)?.cursor ?? null;
}

/** The newest message the patient sent: marking it read marks everything before it too. */
export function newestPeerMessage(messages: readonly ChatMessage[]): ChatMessage | null {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.sender.kind === 'patient') return messages[i]!;
  return null;
}

/** Whether `candidate` (a message id on screen) is newer than the one already marked read. */
export function isNewerThan(messages: readonly ChatMessage[], candidateId: string, markedId: string | null): boolean {
  if (!markedId) return true;
  const at = (id: string) => messages.findIndex((m) => m.id === id);
  const marked = at(markedId);
  return marked === -1 || at(candidateId) > marked;
}

const pad = (n: number) => String(n).padStart(2, '0');
const dayKey = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** The list's time of the last message: 'HH:mm' today, 'DD/MM/YYYY' before (the browser's zone). */
export function listTime(iso: string, now: Date = new Date()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  if (dayKey(d) === dayKey(now)) return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
}

/** The heading of a day in the conversation: «Hoy», «Ayer» or 'DD/MM/YYYY'. */
export function dayLabel(iso: string, now: Date = new Date()): string {
  const d = new Date(iso);
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (dayKey(d) === dayKey(now)) return 'Hoy';
  if (dayKey(d) === dayKey(yesterday)) return 'Ayer';
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
}

/** Whether two instants fall on different local days (a day heading goes between them). */
export const otherDay = (a: string, b: string) => dayKey(new Date(a)) !== dayKey(new Date(b));

/** One line of the last message for the list: whitespace folded, cut at `max` characters. */
export function preview(body: string, max = 90): string {
  const text = body.replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}
