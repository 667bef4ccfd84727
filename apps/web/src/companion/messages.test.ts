import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '@divan/core';
import { lastFromPeer, mergeMessages } from './messages';

const msg = (id: string, ms: number, kind: 'member' | 'patient' = 'member'): ChatMessage => ({
  id,
  patientFileId: 'f',
  sender: { kind, id: 'x', name: null },
  body: id,
  attachment: null,
  automatic: false,
  createdAt: new Date(ms).toISOString(),
  cursor: `${ms}_${id}`,
});

describe('companion chat messages', () => {
  it('merges pages, live messages and catch-up oldest first, each once', () => {
    const page = [msg('c', 300), msg('b', 200)];
    const merged = mergeMessages(mergeMessages([], page), [msg('d', 400), msg('b', 200), msg('a', 200)]);
    expect(merged.map((m) => m.id)).toEqual(['a', 'b', 'c', 'd']);
  });
  it('finds the newest message of the therapist side', () => {
    expect(lastFromPeer([msg('a', 1), msg('b', 2, 'patient')])?.id).toBe('a');
    expect(lastFromPeer([msg('b', 2, 'patient')])).toBeNull();
  });
});
