import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '@divan/core';
import { dayLabel, isNewerThan, listTime, mergeMessages, newestCursor, newestPeerMessage, preview } from './messages';
import { applyCounter, totalUnread, unreadBeyond, unreadOf } from './counters';

const file = '0b6f1c9e-4a1e-4f4e-9a53-7d1c2b3a4f5e';
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
function msg(n: number, at: number, kind: 'member' | 'patient' = 'patient', body = `m${n}`): ChatMessage {
  const id = uuid(n);
  return {
    id,
    patientFileId: file,
    sender: { kind, id: uuid(900), name: null },
    body,
    attachment: null,
    automatic: false,
    createdAt: new Date(at).toISOString(),
    cursor: `${at}_${id}`,
  };
}
const ids = (list: ChatMessage[]) => list.map((m) => m.body);

describe('mergeMessages', () => {
  it('puts an older page before what is on screen and a live message after it, oldest first', () => {
    const latest = [msg(3, 3000), msg(4, 4000)];
    const older = [msg(2, 2000), msg(1, 1000)]; // the server's `before` pages come newest first
    expect(ids(mergeMessages(mergeMessages(latest, older), [msg(5, 5000)]))).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
  });

  it('never shows a message twice: the live event, the send answer and the catch-up page name the same one', () => {
    const screen = mergeMessages([msg(1, 1000)], [msg(2, 2000, 'member')]); // the send's answer
    const live = mergeMessages(screen, [msg(2, 2000, 'member')]); // its chat-message event
    const caughtUp = mergeMessages(live, [msg(2, 2000, 'member'), msg(3, 3000)]); // `after` from m1 after a reconnect
    expect(ids(caughtUp)).toEqual(['m1', 'm2', 'm3']);
  });

  it('orders messages of the same millisecond by id, as the server keyset does', () => {
    expect(ids(mergeMessages([msg(9, 1000)], [msg(8, 1000)]))).toEqual(['m8', 'm9']);
  });

  it('returns the same list when nothing comes in (no re-render)', () => {
    const list = [msg(1, 1000)];
    expect(mergeMessages(list, [])).toBe(list);
  });
});

describe('cursors and read marks', () => {
  const list = mergeMessages([], [msg(1, 1000), msg(2, 2000, 'member'), msg(3, 3000), msg(4, 4000, 'member')]);
  it('catches up from the newest message on screen', () => {
    expect(newestCursor(list)).toBe(`4000_${uuid(4)}`);
    expect(newestCursor([])).toBeNull();
  });
  it('marks read up to the newest message of the patient, only when it is newer than the last mark', () => {
    expect(newestPeerMessage(list)?.id).toBe(uuid(3));
    expect(newestPeerMessage([msg(2, 2000, 'member')])).toBeNull();
    expect(isNewerThan(list, uuid(3), null)).toBe(true);
    expect(isNewerThan(list, uuid(3), uuid(1))).toBe(true);
    expect(isNewerThan(list, uuid(3), uuid(3))).toBe(false);
  });
});

describe('times and previews', () => {
  const now = new Date(2026, 10, 28, 18, 0);
  it('shows HH:mm today and DD/MM/YYYY before', () => {
    expect(listTime(new Date(2026, 10, 28, 9, 5).toISOString(), now)).toBe('09:05');
    expect(listTime(new Date(2026, 10, 27, 23, 59).toISOString(), now)).toBe('27/11/2026');
    expect(listTime('nope', now)).toBe('');
  });
  it('names the days of the conversation', () => {
    expect(dayLabel(new Date(2026, 10, 28, 1).toISOString(), now)).toBe('Hoy');
    expect(dayLabel(new Date(2026, 10, 27, 1).toISOString(), now)).toBe('Ayer');
    expect(dayLabel(new Date(2026, 0, 2).toISOString(), now)).toBe('02/01/2026');
  });
  it('folds the preview to one line and cuts it', () => {
    expect(preview('  Hola\n\nqué tal  ')).toBe('Hola qué tal');
    expect(preview('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});

describe('unread counters', () => {
  const a = uuid(1);
  const b = uuid(2);
  it('updates a file of this workspace, and drops it at zero', () => {
    expect(applyCounter({ [a]: { count: 1 } }, a, 3)).toEqual({ [a]: { count: 3 } });
    expect(applyCounter({ [a]: { count: 1 }, [b]: { count: 2 } }, a, 0)).toEqual({ [b]: { count: 2 } });
    expect(applyCounter({ [a]: { count: 1 } }, a, 1)).toBe('same');
  });
  it('asks the server about a file it does not know that has unread messages (another workspace or a new one)', () => {
    expect(applyCounter({}, a, 2)).toBe('refetch');
    expect(applyCounter({}, a, 0)).toBe('same');
  });
  it('sums the badge and reads a row from the live counters once loaded', () => {
    expect(totalUnread({ [a]: { count: 2 }, [b]: { count: 5 } })).toBe(7);
    expect(totalUnread(undefined)).toBe(0);
    expect(unreadOf(undefined, a, 4)).toBe(4);
    expect(unreadOf({}, a, 4)).toBe(0);
    expect(unreadOf({ [a]: { count: 1 } }, a, 4)).toBe(1);
  });
  it("counts what the dashboard's list leaves out, never below zero", () => {
    expect(unreadBeyond({ [a]: { count: 2 }, [b]: { count: 5 } }, [2])).toBe(5);
    expect(unreadBeyond({ [a]: { count: 2 } }, [2])).toBe(0);
    expect(unreadBeyond({ [a]: { count: 2 } }, [3])).toBe(0);
    expect(unreadBeyond(undefined, [])).toBe(0);
  });
});

describe('the list in the address', () => {
  it('reads tab, search and page, and falls back on anything odd', async () => {
    const { readChatListState, writeChatListState } = await import('./list-params');
    expect(readChatListState(new URLSearchParams('tab=inactive&q=ana&page=3'))).toEqual({ tab: 'inactive', q: 'ana', page: 3 });
    expect(readChatListState(new URLSearchParams('tab=nope&page=-2'))).toEqual({ tab: 'unread', q: '', page: 1 });
    expect(writeChatListState({ tab: 'unread', q: ' ', page: 1 }).toString()).toBe('');
    expect(writeChatListState({ tab: 'read', q: 'luis', page: 2 }).toString()).toBe('tab=read&q=luis&page=2');
  });
});
