// @vitest-environment jsdom
import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LEARNING_PROGRESS_SAVE_MS } from '@divan/core';
import { useAuthStore } from '@/stores/auth-store';
import { enter, leave, stubRoutes, VID } from '../learning-test-kit';
import { useProgressSaver, type PlaybackEvents } from './use-progress-saver';

beforeEach(() => leave());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  leave();
});

const SAVE = `PUT /learning/videos/${VID}/progress`;
const saved = { positionSeconds: 0, watchedSeconds: 0, completedAt: null, updatedAt: '2026-12-07T10:00:00Z' };

function mount() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  return renderHook(() => useProgressSaver(VID, true), { wrapper });
}
/** Time updates every 0.25 s from `from` to `to`, as a playing <video> sends them. */
const playFor = (events: PlaybackEvents, from: number, to: number) => {
  for (let t = from; t <= to + 1e-9; t += 0.25) events.time(Math.round(t * 100) / 100, true);
};

describe('useProgressSaver', () => {
  it('on pause, saves the position and the stretch really played — never a jump', async () => {
    enter();
    const api = stubRoutes({ [SAVE]: [200, saved] });
    const { result } = mount();
    act(() => {
      result.current.play();
      playFor(result.current, 0, 12);
      // Dragged forward while playing: a position, not watched time.
      result.current.seeking();
      result.current.time(1500, false);
      playFor(result.current, 1500, 1502);
      result.current.pause(1502);
    });
    await waitFor(() => expect(api.count(SAVE)).toBe(1));
    expect(api.of(SAVE)[0]!.body).toEqual({
      positionSeconds: 1502,
      watched: [
        [0, 12],
        [1500, 1502],
      ],
    });
  });

  it('saves every LEARNING_PROGRESS_SAVE_MS while playing, only what is new each time', async () => {
    vi.useFakeTimers();
    enter();
    const api = stubRoutes({ [SAVE]: [200, saved] });
    const { result } = mount();
    act(() => {
      result.current.play();
      playFor(result.current, 0, 10);
    });
    await act(() => vi.advanceTimersByTimeAsync(LEARNING_PROGRESS_SAVE_MS));
    act(() => playFor(result.current, 10.25, 20));
    await act(() => vi.advanceTimersByTimeAsync(LEARNING_PROGRESS_SAVE_MS));
    expect(api.of(SAVE).map((r) => r.body)).toEqual([
      { positionSeconds: 10, watched: [[0, 10]] },
      { positionSeconds: 20, watched: [[10, 20]] },
    ]);
  });

  it('as the page goes: a keepalive save with the same token; on unmount, a last one', async () => {
    enter();
    const token = useAuthStore.getState().accessToken;
    const api = stubRoutes({ [SAVE]: [200, saved] });
    const { result, unmount } = mount();
    act(() => {
      result.current.play();
      playFor(result.current, 30, 35);
    });
    act(() => void window.dispatchEvent(new Event('pagehide')));
    await waitFor(() => expect(api.count(SAVE)).toBe(1));
    const leaving = api.of(SAVE)[0]!;
    expect(leaving.keepalive).toBe(true);
    expect(leaving.headers.Authorization).toBe(`Bearer ${token}`);
    expect(leaving.body).toEqual({ positionSeconds: 35, watched: [[30, 35]] });

    act(() => playFor(result.current, 35.25, 38));
    unmount();
    await waitFor(() => expect(api.count(SAVE)).toBe(2));
    expect(api.of(SAVE)[1]!.body).toEqual({ positionSeconds: 38, watched: [[35, 38]] });
    expect(api.of(SAVE)[1]!.keepalive).toBe(false);
  });
});
