// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderScreen, signIn, stubServer } from '@/test/render';
import { sessionKeys, useSession, useUpdateSession } from './sessions-api';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const wid = 'w-1';

function Mover({ show }: { show?: string }) {
  const update = useUpdateSession(wid);
  const open = useSession(wid, show ?? null);
  return (
    <>
      <button type="button" onClick={() => update.mutate({ id: 's-2', body: { day: '2026-12-21', from: '10:00', to: '10:50' } })}>
        Deshacer
      </button>
      <p>{update.isSuccess ? 'hecho' : 'pendiente'}</p>
      <p>{open.data ? `abierta ${(open.data as { from: string }).from}` : ''}</p>
    </>
  );
}

describe('a session write', () => {
  it('forgets the details not on screen (a reopened session never shows its old time) and refreshes the rest', async () => {
    signIn();
    stubServer(200, { id: 's-2', conflicts: [] });
    const { user, client } = renderScreen(<Mover />, {
      queries: [
        [sessionKeys.detail(wid, 's-2'), { id: 's-2', day: '2026-12-23', from: '16:00', to: '16:50' }],
        [sessionKeys.range(wid, 'a', 'b'), []],
      ],
    });
    await user.click(screen.getByRole('button', { name: 'Deshacer' }));
    await screen.findByText('hecho');
    await waitFor(() => expect(client.getQueryState(sessionKeys.detail(wid, 's-2'))).toBeUndefined());
    expect(client.getQueryState(sessionKeys.range(wid, 'a', 'b'))?.isInvalidated).toBe(true);
  });

  it('keeps the detail on screen and refetches it', async () => {
    signIn();
    const server = stubServer(200, { id: 's-2', day: '2026-12-21', from: '10:00', to: '10:50', conflicts: [] });
    const { user, client } = renderScreen(<Mover show="s-2" />, {
      queries: [[sessionKeys.detail(wid, 's-2'), { id: 's-2', day: '2026-12-23', from: '16:00', to: '16:50' }]],
    });
    await screen.findByText('abierta 16:00');
    await user.click(screen.getByRole('button', { name: 'Deshacer' }));
    await screen.findByText('abierta 10:00');
    expect(client.getQueryState(sessionKeys.detail(wid, 's-2'))).toBeDefined();
    expect(server.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`)).toEqual([
      'PATCH /api/v1/workspaces/w-1/sessions/s-2',
      'GET /api/v1/workspaces/w-1/sessions/s-2',
    ]);
  });
});
