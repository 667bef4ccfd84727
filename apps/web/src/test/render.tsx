import type { ReactElement } from 'react';
import { QueryClient, QueryClientProvider, type QueryKey } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { useAuthStore } from '@/stores/auth-store';

/**
 * Component tests (`*.test.tsx`, each with `// @vitest-environment jsdom` and `afterEach(cleanup)`: the
 * root config shares modules between files, so hooks registered here would run for the first file only).
 * `renderScreen` mounts a screen as the app does (TanStack Query and React Router) with the queries it
 * reads already answered, and a person typing and clicking (`user`).
 */
export function renderScreen(ui: ReactElement, options: { queries?: [QueryKey, unknown][]; route?: string } = {}) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity, gcTime: Infinity }, mutations: { retry: false } },
  });
  for (const [key, data] of options.queries ?? []) client.setQueryData(key, data);
  const user = userEvent.setup();
  const view = render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[options.route ?? '/']}>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...view, user, client };
}

/** A signed-in browser (an access token valid for an hour), so `api()` calls `fetch` without refreshing first. */
export function signIn(): void {
  const claims = btoa(JSON.stringify({ sub: 'u-1', exp: Math.floor(Date.now() / 1000) + 3600 })).replace(/=+$/, '');
  useAuthStore.setState({ userId: 'u-1', accessToken: `e30.${claims}.firma`, refreshToken: 'r', loggedIn: true });
}

/**
 * The server, as `fetch`: every request answers `status` with `body` (a Spanish error by default) and is
 * recorded, so a test can say that a refused form asked nothing.
 */
export function stubServer(status = 500, body: unknown = { code: 'internal_error', message: 'Error interno del servidor' }) {
  const server = vi.fn(
    async (_url: string | URL | Request, _init?: RequestInit) =>
      new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
  );
  vi.stubGlobal('fetch', server);
  return server;
}
