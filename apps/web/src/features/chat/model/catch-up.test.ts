import { describe, expect, it } from 'vitest';
import { compareChatCursors, decodeChatCursor, type ChatMessage, type ChatMessagesPage } from '@divan/core';
import { catchUp } from './catch-up';
import { mergeMessages, newestCursor } from './messages';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const msg = (n: number): ChatMessage => ({
  id: uuid(n),
  patientFileId: uuid(999),
  sender: { kind: n % 2 ? 'patient' : 'member', id: uuid(900), name: null },
  body: `m${n}`,
  attachment: null,
  automatic: false,
  createdAt: new Date(n * 1000).toISOString(),
  cursor: `${n * 1000}_${uuid(n)}`,
});

/** The server's `after` as the routes answer it: strictly newer, oldest first, `limit` at a time, `next` while more remain. */
function server(all: ChatMessage[], limit: number) {
  const calls: string[] = [];
  const fetchAfter = async (after: string): Promise<ChatMessagesPage> => {
    calls.push(after);
    const from = decodeChatCursor(after)!;
    const newer = all.filter((m) => compareChatCursors(decodeChatCursor(m.cursor)!, from) > 0);
    const items = newer.slice(0, limit);
    return { items, next: newer.length > limit ? items.at(-1)!.cursor : null };
  };
  return { fetchAfter, calls };
}

describe('catching up after a reconnect', () => {
  it('gets every message sent while offline, page after page, once, after what was on screen', async () => {
    const all = Array.from({ length: 12 }, (_, i) => msg(i + 1));
    const onScreen = all.slice(0, 4);
    const { fetchAfter, calls } = server(all, 3);
    const missed = await catchUp(newestCursor(onScreen), fetchAfter);
    expect(missed.map((m) => m.body)).toEqual(all.slice(4).map((m) => m.body));
    expect(calls).toHaveLength(3);
    expect(mergeMessages(onScreen, missed).map((m) => m.body)).toEqual(all.map((m) => m.body));
  });

  it('adds nothing twice when a message came live just before the socket dropped', async () => {
    const all = Array.from({ length: 6 }, (_, i) => msg(i + 1));
    // m5 arrived live (and again in the send's answer); the socket dropped before m6.
    const onScreen = mergeMessages(mergeMessages(all.slice(0, 4), [all[4]!]), [all[4]!]);
    const missed = await catchUp(newestCursor(onScreen), server(all, 30).fetchAfter);
    expect(missed.map((m) => m.body)).toEqual(['m6']);
    // m6 also arriving live once the socket is back changes nothing.
    expect(mergeMessages(mergeMessages(onScreen, missed), [all[5]!]).map((m) => m.body)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5', 'm6']);
  });

  it('asks nothing for an empty conversation and stops after the page cap', async () => {
    const { fetchAfter, calls } = server([msg(1), msg(2), msg(3)], 1);
    expect(await catchUp(null, fetchAfter)).toEqual([]);
    expect(calls).toEqual([]);
    expect((await catchUp(msg(0).cursor, fetchAfter, 2)).map((m) => m.body)).toEqual(['m1', 'm2']);
  });
});
