/**
 * A keyset cursor over a conversation's messages: (created_at, id), written `<epoch ms>_<uuid>`.
 * Messages are stored with millisecond instants so the cursor names a row exactly.
 */
export type ChatCursor = { at: Date; id: string };

const CURSOR = /^(\d{1,15})_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

export function encodeChatCursor(c: ChatCursor): string {
  return `${c.at.getTime()}_${c.id.toLowerCase()}`;
}

/** The cursor, or null when the text is not one. */
export function decodeChatCursor(text: string): ChatCursor | null {
  const m = CURSOR.exec(text);
  if (!m) return null;
  const at = new Date(Number(m[1]));
  return Number.isNaN(at.getTime()) ? null : { at, id: m[2]!.toLowerCase() };
}

/** Order of messages: older first. */
export function compareChatCursors(a: ChatCursor, b: ChatCursor): number {
  return a.at.getTime() - b.at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
