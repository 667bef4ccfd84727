// For the plans screens' component tests only: a workspace in the store and a server that answers by route.
import { vi } from 'vitest';
import type { BillingOverview, Workspace } from '@divan/core';
import { signIn } from '@/test/render';
import { placeholderWorkspace, useWorkspacesStore } from '@/stores/workspaces-store';

const DAY = 86_400_000;

export const WID = 'a0c1e5d2-7f3b-4c11-9a2e-5b6d7e8f9a01';

export function workspaceOf(o: Partial<Workspace> = {}): Workspace {
  return {
    ...placeholderWorkspace,
    id: WID,
    name: 'Consulta Alba',
    isOwner: true,
    owner: { id: 'u-1', firstName: 'Alba', lastName: 'Ruiz' },
    me: { memberId: 'm-1', isAdmin: true, permissions: [] },
    // Ten days of trial left, give or take the test's own time.
    plan: {
      id: null,
      periodEnd: null,
      renovationEnabled: false,
      freeTrialEnd: new Date(Date.now() + 9.5 * DAY).toISOString(),
      seats: 5,
      promptUpgrade: false,
    },
    ...o,
  };
}

/**
 * After each test: files share their modules (isolate: false), so the store must not carry this file's
 * workspace (an admin one) into the next file's screens.
 */
export function leave(): void {
  useWorkspacesStore.getState().reset();
}

/** Signed in as u-1, in `workspace`. */
export function enter(workspace: Workspace = workspaceOf()): Workspace {
  signIn();
  useWorkspacesStore.setState({ userId: 'u-1', workspaces: [workspace], currentId: workspace.id });
  return workspace;
}

export const overviewOf = (o: Partial<BillingOverview> = {}): BillingOverview => ({
  available: true,
  mode: 'test',
  canManage: true,
  activeUsers: 3,
  subscription: null,
  ...o,
});

type Answer = [status: number, body: unknown];
type Handler = Answer | ((body: unknown, calls: number) => Answer);

/**
 * `fetch`, answering each `METHOD /path` (under /api/v1) from `routes`; anything else is a 404 the test
 * will notice. Records every request, its body parsed.
 */
export function stubRoutes(routes: Record<string, Handler>) {
  const seen = new Map<string, number>();
  const requests: { route: string; body: unknown }[] = [];
  const server = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const path = new URL(String(url), 'http://localhost').pathname.replace(/^\/api\/v1/, '');
    const route = `${init?.method ?? 'GET'} ${path}`;
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    requests.push({ route, body });
    const n = (seen.get(route) ?? 0) + 1;
    seen.set(route, n);
    const handler = routes[route];
    const [status, answer] = !handler
      ? [404, { code: 'not_found', message: `Sin respuesta para ${route}` }]
      : typeof handler === 'function'
        ? handler(body, n)
        : handler;
    return new Response(JSON.stringify(answer), { status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', server);
  return { server, requests, count: (route: string) => seen.get(route) ?? 0 };
}
