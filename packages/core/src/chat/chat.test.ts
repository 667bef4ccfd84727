import { describe, expect, it } from 'vitest';
import { compareChatCursors, decodeChatCursor, encodeChatCursor } from './chat.cursor';
import { chatMessagesQuery, sendChatMessageBody } from './chat.contracts';

const id = '0b6f1c9e-4a1e-4f4e-9a53-7d1c2b3a4f5e';

describe('chat cursor', () => {
  it('round-trips (created_at, id) to the millisecond', () => {
    const at = new Date('2026-11-28T10:15:30.123Z');
    const text = encodeChatCursor({ at, id });
    expect(text).toBe(`${at.getTime()}_${id}`);
    expect(decodeChatCursor(text)).toEqual({ at, id });
  });

  it('refuses anything else', () => {
    for (const bad of ['', 'x', `12_${id}x`, `_${id}`, '12_not-a-uuid', `1e3_${id}`]) expect(decodeChatCursor(bad), bad).toBeNull();
  });

  it('orders by instant, then id', () => {
    const a = { at: new Date(1000), id };
    expect(compareChatCursors(a, { at: new Date(2000), id })).toBeLessThan(0);
    expect(compareChatCursors(a, { at: new Date(1000), id: 'f' + id.slice(1) })).toBeLessThan(0);
  });
});

describe('chat contracts', () => {
  it('takes before or after, not both', () => {
    const c = `1000_${id}`;
    expect(chatMessagesQuery.safeParse({ before: c }).success).toBe(true);
    expect(chatMessagesQuery.safeParse({ before: c, after: c }).success).toBe(false);
    expect(chatMessagesQuery.safeParse({ after: 'nope' }).success).toBe(false);
  });

  it('trims the message and refuses an empty one', () => {
    expect(sendChatMessageBody.parse({ body: '  hola ' }).body).toBe('hola');
    expect(sendChatMessageBody.safeParse({ body: '   ' }).success).toBe(false);
  });
});

describe('office hours', () => {
  const h = {
    enabled: true,
    timeZone: 'Europe/Madrid',
    slots: [{ weekday: 1, start: '09:00', end: '14:00' }],
    autoReply: 'Fuera de horario',
  };
  it('reads the instant in the therapist’s zone', async () => {
    const { outsideOfficeHours } = await import('./chat-office-hours');
    // Monday 2026-11-30: 08:30 UTC is 09:30 in Madrid (inside); 13:30 UTC is 14:30 (outside).
    expect(outsideOfficeHours(h, new Date('2026-11-30T08:30:00Z'))).toBe(false);
    expect(outsideOfficeHours(h, new Date('2026-11-30T13:30:00Z'))).toBe(true);
    expect(outsideOfficeHours(h, new Date('2026-12-01T08:30:00Z'))).toBe(true);
    expect(outsideOfficeHours({ ...h, enabled: false }, new Date('2026-12-01T08:30:00Z'))).toBe(false);
  });
});
