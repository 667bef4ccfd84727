// For the gift screens' component tests only: a workspace in the store and a server that answers by route.
import { vi } from 'vitest';
import type { BillingOverview, GiftPurchase, GiftView, Workspace } from '@divan/core';
import { signIn } from '@/test/render';
import { useAuthStore } from '@/stores/auth-store';
import { placeholderWorkspace, useWorkspacesStore } from '@/stores/workspaces-store';

const DAY = 86_400_000;

export const WID = 'b1d2e3f4-7f3b-4c11-9a2e-5b6d7e8f9a02';
export const CODE = 'K7M2QX9PABCDEFGHJKLMNPQRST';
export const FORMATTED = 'K7M2Q-X9PAB-CDEFG-HJKLM-NPQRS-T';

export function workspaceOf(o: Partial<Workspace> = {}): Workspace {
  return {
    ...placeholderWorkspace,
    id: WID,
    name: 'Consulta Alba',
    isOwner: true,
    owner: { id: 'u-1', firstName: 'Alba', lastName: 'Ruiz' },
    me: { memberId: 'm-1', isAdmin: true, permissions: [] },
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

/** After each test: files share their modules (isolate: false), so no store or tab storage is carried on. */
export function leave(): void {
  useWorkspacesStore.getState().reset();
  useAuthStore.setState({ userId: null, accessToken: null, refreshToken: null, loggedIn: false });
  sessionStorage.clear();
}

/** Signed in as u-1, in the first of `workspaces`. */
export function enter(...workspaces: Workspace[]): Workspace {
  const list = workspaces.length ? workspaces : [workspaceOf()];
  signIn();
  useWorkspacesStore.setState({ userId: 'u-1', workspaces: list, currentId: list[0]!.id });
  return list[0]!;
}

export const overviewOf = (o: Partial<BillingOverview> = {}): BillingOverview => ({
  available: true,
  mode: 'test',
  canManage: true,
  activeUsers: 3,
  subscription: null,
  ...o,
});

export const purchaseOf = (o: Partial<GiftPurchase> = {}): GiftPurchase => ({
  status: 'open',
  months: 3,
  subtotal: 8700,
  vat: 1827,
  total: 10527,
  recipientEmail: 'marta@ejemplo.com',
  code: null,
  link: null,
  revealed: false,
  expiresAt: null,
  ...o,
});

export const giftOf = (o: Partial<GiftView> = {}): GiftView => ({
  status: 'available',
  months: 3,
  fromName: 'Alba Ruiz',
  recipientName: 'Marta',
  message: '¡Para que pruebes Diván con calma!',
  expiresAt: '2027-12-03T12:00:00Z',
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
