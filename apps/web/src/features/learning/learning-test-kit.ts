// For the library's component tests only: cards, a workspace in the store and a server that answers by route.
import { vi } from 'vitest';
import { learningPriceWithVat, type LearningCard, type LearningList, type LearningVideo, type Workspace } from '@divan/core';
import { signIn } from '@/test/render';
import { useAuthStore } from '@/stores/auth-store';
import { placeholderWorkspace, useWorkspacesStore } from '@/stores/workspaces-store';

export const WID = 'c2d3e4f5-7f3b-4c11-9a2e-5b6d7e8f9a03';
export const VID = '5b0a9a52-1c1e-4d5f-9a57-0f1e2d3c4b5a';

export function cardOf(o: Partial<LearningCard> = {}): LearningCard {
  const priceCents = o.priceCents ?? 2479;
  return {
    id: VID,
    title: 'El apego en la consulta',
    colour: '#2F6F5E',
    iconUrl: '/api/v1/files/icono',
    categories: ['PSYCHOLOGIST_SKILLS'],
    tags: ['apego'],
    priceCents,
    priceWithVatCents: learningPriceWithVat(priceCents),
    previewSeconds: 30,
    durationSeconds: 1800,
    hosting: 'file',
    purchased: false,
    bookmarked: false,
    progress: null,
    ...o,
  };
}

export const videoOf = (o: Partial<LearningVideo> = {}): LearningVideo => ({
  ...cardOf(o),
  description: 'Cómo se muestra el apego en las primeras sesiones.',
  uploader: { name: 'Equipo de Diván' },
  publishedAt: '2026-11-02T10:00:00Z',
  related: [],
  ...o,
});

export const listOf = (items: LearningCard[], o: Partial<LearningList> = {}): LearningList => ({
  items,
  total: items.length,
  page: 1,
  pageSize: 24,
  tags: ['apego', 'duelo'],
  ...o,
});

export function workspaceOf(o: Partial<Workspace> = {}): Workspace {
  return {
    ...placeholderWorkspace,
    id: WID,
    name: 'Consulta Alba',
    isOwner: true,
    owner: { id: 'u-1', firstName: 'Alba', lastName: 'Ruiz' },
    me: { memberId: 'm-1', isAdmin: true, permissions: [] },
    ...o,
  };
}

/** Signed in as u-1, in `workspace`. */
export function enter(workspace: Workspace = workspaceOf()): Workspace {
  signIn();
  useWorkspacesStore.setState({ userId: 'u-1', workspaces: [workspace], currentId: workspace.id });
  return workspace;
}

/** After each test: files share their modules (isolate: false), so no store or tab storage is carried on. */
export function leave(): void {
  useWorkspacesStore.getState().reset();
  useAuthStore.setState({ userId: null, accessToken: null, refreshToken: null, loggedIn: false });
  sessionStorage.clear();
}

type Answer = [status: number, body: unknown];
type Seen = { route: string; query: Record<string, string>; body: unknown; headers: Record<string, string>; keepalive: boolean };
type Handler = Answer | ((req: Seen, calls: number) => Answer | Promise<Answer>);

/**
 * `fetch`, answering each `METHOD /path` (under /api/v1) from `routes`; anything else is a 404 the test will
 * notice. Records every request with its query, JSON body and headers.
 */
export function stubRoutes(routes: Record<string, Handler>) {
  const seen = new Map<string, number>();
  const requests: Seen[] = [];
  const server = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const u = new URL(String(url), 'http://localhost');
    const route = `${init?.method ?? 'GET'} ${u.pathname.replace(/^\/api\/v1/, '')}`;
    const req: Seen = {
      route,
      query: Object.fromEntries(u.searchParams),
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : init?.body,
      headers: { ...(init?.headers as Record<string, string>) },
      keepalive: init?.keepalive === true,
    };
    requests.push(req);
    const n = (seen.get(route) ?? 0) + 1;
    seen.set(route, n);
    const handler = routes[route];
    const [status, answer] = !handler
      ? [404, { code: 'not_found', message: `Sin respuesta para ${route}` }]
      : typeof handler === 'function'
        ? await handler(req, n)
        : handler;
    return status === 204
      ? new Response(null, { status })
      : new Response(JSON.stringify(answer), { status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', server);
  return {
    server,
    requests,
    count: (route: string) => seen.get(route) ?? 0,
    of: (route: string) => requests.filter((r) => r.route === route),
  };
}
