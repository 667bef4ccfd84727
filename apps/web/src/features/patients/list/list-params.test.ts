import { describe, expect, it } from 'vitest';
import { readListState, toQuery, writeListState } from './list-params';

describe('patients list state in the URL', () => {
  it('reads defaults from an empty URL and writes nothing back', () => {
    const state = readListState(new URLSearchParams());
    expect(state).toMatchObject({ q: '', status: null, sort: 'lastName', dir: 'asc', page: 1 });
    expect(writeListState(state).toString()).toBe('');
  });

  it('round-trips every filter, and ignores values the API would refuse', () => {
    const url = new URLSearchParams(
      'q=garc%C3%ADa&status=paused&therapist=unassigned&sessionType=couple&motive=anxiety&sort=createdAt&dir=desc&page=3',
    );
    const state = readListState(url);
    expect(readListState(writeListState(state))).toEqual(state);
    expect(toQuery(state)).toMatchObject({ q: 'garcía', status: 'paused', therapistId: 'unassigned', page: 3, pageSize: 50 });
    const bad = readListState(new URLSearchParams('status=deleted&therapist=1;drop&sort=password&page=-2&motive=x'));
    expect(bad).toMatchObject({ status: null, therapist: null, sort: 'lastName', page: 1, motive: null });
  });
});
