import { describe, expect, it } from 'vitest';
import { writeOnChange, type SyncStorage } from './write-on-change-storage';

/** Two tabs over one storage, each with its own copy of what it last saw. */
function shared() {
  const data = new Map<string, string>();
  const writes: string[] = [];
  const raw: SyncStorage = {
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => {
      writes.push(v);
      data.set(k, v);
    },
    removeItem: (k) => void data.delete(k),
  };
  return { data, writes, raw };
}

describe('writeOnChange', () => {
  it('does not write back the value a tab just read, so it cannot undo a newer write', () => {
    const { data, writes, raw } = shared();
    data.set('auth', '{"refreshToken":"r0"}');
    const tabA = writeOnChange(raw);
    const tabB = writeOnChange(raw);
    const read = tabB.getItem('auth')!;
    tabA.setItem('auth', '{"refreshToken":"r1"}'); // A rotated the token
    tabB.setItem('auth', read); // B persists its unchanged state (e.g. after marking itself hydrated)
    expect(data.get('auth')).toBe('{"refreshToken":"r1"}');
    expect(writes).toEqual(['{"refreshToken":"r1"}']);
  });

  it('writes real changes, and again after a removal', () => {
    const { data, raw } = shared();
    const tab = writeOnChange(raw);
    tab.setItem('auth', 'a');
    tab.setItem('auth', 'b');
    expect(data.get('auth')).toBe('b');
    tab.removeItem('auth');
    tab.setItem('auth', 'b');
    expect(data.get('auth')).toBe('b');
  });
});
