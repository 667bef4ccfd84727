import { describe, expect, it } from 'vitest';
import { INITIAL_WORKSPACE_ID, pickCurrent } from './workspace-selection';

const ws = (id: string, isOwner = false) => ({ id, isOwner });

describe('pickCurrent', () => {
  it('keeps the current workspace while it is still in the list', () => {
    expect(pickCurrent([ws('a', true), ws('b')], 'b')).toBe('b');
  });
  it('falls back to the owned workspace when the current one is gone', () => {
    expect(pickCurrent([ws('a'), ws('b', true)], 'gone')).toBe('b');
  });
  it('takes the first one when none is owned', () => {
    expect(pickCurrent([ws('a'), ws('b')], null)).toBe('a');
  });
  it('answers the placeholder for an empty list', () => {
    expect(pickCurrent([], 'a')).toBe(INITIAL_WORKSPACE_ID);
  });
});
