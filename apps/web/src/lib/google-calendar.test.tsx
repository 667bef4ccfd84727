// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderScreen, signIn } from '@/test/render';
import { useGoogleBusy } from './google-calendar';
import { realtimeBus } from './realtime-bus';

const WID = '7d0c2b9e-6f0e-4a34-9d1c-2f3a4b5c6d7e';
const RANGE = { from: '2026-12-07T00:00:00.000Z', to: '2026-12-14T00:00:00.000Z' };

function Busy() {
  const q = useGoogleBusy(WID, RANGE);
  return <p>{q.data ? `${q.data.length} bloques` : 'cargando'}</p>;
}

/** The busy route as `fetch`: each answer one more block than the one before. */
function stubBusy() {
  let n = 0;
  const server = vi.fn(async (url: string | URL | Request) => {
    expect(String(url)).toContain(`/workspaces/${WID}/google-calendar/busy`);
    n++;
    const items = Array.from({ length: n }, (_, i) => ({ start: `2026-12-07T0${i}:00:00.000Z`, end: `2026-12-07T0${i}:30:00.000Z` }));
    return new Response(JSON.stringify({ items }), { status: 200, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', server);
  return server;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('useGoogleBusy', () => {
  it('refetches at once when the socket says the busy times of this workspace changed', async () => {
    signIn();
    const server = stubBusy();
    renderScreen(<Busy />);
    expect(await screen.findByText('1 bloques')).toBeTruthy();
    // Another workspace's change, or another event, asks nothing.
    realtimeBus.publish({ event: 'google-busy-changed', data: { workspaceId: 'a1b2c3d4-0000-4000-8000-000000000000' } });
    realtimeBus.publish({ event: 'workspace-event', data: { name: 'session.created', workspaceId: WID } });
    await new Promise((r) => setTimeout(r, 50));
    expect(server).toHaveBeenCalledTimes(1);
    realtimeBus.publish({ event: 'google-busy-changed', data: { workspaceId: WID } });
    expect(await screen.findByText('2 bloques')).toBeTruthy();
    expect(server).toHaveBeenCalledTimes(2);
  });

  it('catches up when the socket is back after a drop', async () => {
    signIn();
    const server = stubBusy();
    renderScreen(<Busy />);
    expect(await screen.findByText('1 bloques')).toBeTruthy();
    realtimeBus.publishStatus('connected');
    await new Promise((r) => setTimeout(r, 50));
    expect(server).toHaveBeenCalledTimes(1);
    realtimeBus.publishStatus('closed');
    realtimeBus.publishStatus('connecting');
    realtimeBus.publishStatus('connected');
    await waitFor(() => expect(server).toHaveBeenCalledTimes(2));
    expect(await screen.findByText('2 bloques')).toBeTruthy();
  });
});
