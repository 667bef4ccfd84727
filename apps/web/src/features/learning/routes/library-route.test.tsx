// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { cardOf, enter, leave, listOf, stubRoutes } from '../learning-test-kit';
import { LibraryRoute } from './library-route';

beforeEach(() => leave());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  leave();
});

const LIST = 'GET /learning/videos';
const open = (route = '/learn/library') => renderScreen(<LibraryRoute />, { route });
/** What the list was last asked for. */
const lastQuery = (api: ReturnType<typeof stubRoutes>) => api.of(LIST).at(-1)?.query;

describe('/learn/library', () => {
  it('shows each card with its colour, categories and price with IVA, or «Comprado» and its progress', async () => {
    enter();
    stubRoutes({
      [LIST]: [
        200,
        listOf([
          cardOf({ id: 'a1', title: 'El apego en la consulta', priceCents: 2479 }),
          cardOf({
            id: 'a2',
            title: 'Duelo y pérdida',
            categories: ['BOOK_COMMENTARY', 'CLINICAL_CASE_COMMENTARY'],
            purchased: true,
            progress: { positionSeconds: 900, watchedSeconds: 900, completedAt: null, updatedAt: '2026-12-01T10:00:00Z' },
          }),
        ]),
      ],
    });
    open();
    const first = (await screen.findByRole('link', { name: 'El apego en la consulta' })).closest('article')!;
    expect(first.textContent).toContain('30,00\u00a0€ IVA incluido');
    expect(within(first).getByText('Habilidades del psicólogo')).toBeTruthy();
    expect(within(first).queryByText('Comprado')).toBeNull();
    expect(screen.getByRole('link', { name: 'El apego en la consulta' }).getAttribute('href')).toBe('/learn/video/a1');

    const second = screen.getByRole('link', { name: 'Duelo y pérdida' }).closest('article')!;
    expect(within(second).getByText('Comprado')).toBeTruthy();
    expect(second.textContent).not.toContain('IVA incluido');
    expect(
      within(second)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Comentarios de libros', 'Comentarios de casos clínicos']);
    expect(within(second).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50');
    expect(screen.getByText('2 vídeos para seguir formándote a tu ritmo')).toBeTruthy();
  });

  it('asks the catalogue by category, tag and search, and «Limpiar filtros» goes back to all', async () => {
    enter();
    const api = stubRoutes({ [LIST]: (req) => [200, listOf(req.query.q === 'nada' ? [] : [cardOf()])] });
    const { user } = open();
    await screen.findByRole('link', { name: 'El apego en la consulta' });
    expect(lastQuery(api)).toEqual({ page: '1' });

    await user.click(screen.getByRole('button', { name: 'Comentarios de libros' }));
    await waitFor(() => expect(lastQuery(api)).toEqual({ category: 'BOOK_COMMENTARY', page: '1' }));
    expect(screen.getByRole('button', { name: 'Comentarios de libros' }).getAttribute('aria-pressed')).toBe('true');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Etiqueta' }), 'duelo');
    await waitFor(() => expect(lastQuery(api)).toEqual({ category: 'BOOK_COMMENTARY', tag: 'duelo', page: '1' }));

    await user.type(screen.getByRole('searchbox', { name: 'Buscar vídeos' }), 'nada');
    await waitFor(() => expect(lastQuery(api)).toEqual({ q: 'nada', category: 'BOOK_COMMENTARY', tag: 'duelo', page: '1' }));
    expect(await screen.findByRole('heading', { name: 'Ningún vídeo coincide' })).toBeTruthy();

    await user.click(screen.getAllByRole('button', { name: /Limpiar filtros/ })[0]!);
    // The unfiltered first page is in the cache already: shown again without asking.
    expect(await screen.findByRole('link', { name: 'El apego en la consulta' })).toBeTruthy();
    expect((screen.getByRole('searchbox', { name: 'Buscar vídeos' }) as HTMLInputElement).value).toBe('');
    expect((screen.getByRole('combobox', { name: 'Etiqueta' }) as HTMLSelectElement).value).toBe('');
    expect(screen.getByRole('button', { name: 'Todas las categorías' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('pages through the catalogue 24 at a time, keeping the filters, and a filter goes back to page 1', async () => {
    enter();
    const api = stubRoutes({
      [LIST]: (req) => {
        const page = Number(req.query.page);
        const items = Array.from({ length: page === 2 ? 6 : 24 }, (_, i) => cardOf({ id: `v${page}-${i}`, title: `Vídeo ${page}.${i}` }));
        return [200, listOf(items, { total: 30, page })];
      },
    });
    vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    const { user } = open('/learn/library?tag=apego');
    await screen.findByRole('link', { name: 'Vídeo 1.0' });
    expect(screen.getByText('1–24 de 30')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: /Siguiente/ }));
    await screen.findByRole('link', { name: 'Vídeo 2.0' });
    expect(lastQuery(api)).toEqual({ tag: 'apego', page: '2' });
    expect(screen.getByText('25–30 de 30')).toBeTruthy();
    expect((screen.getByRole('button', { name: /Siguiente/ }) as HTMLButtonElement).disabled).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Habilidades del psicólogo' }));
    await waitFor(() => expect(lastQuery(api)).toEqual({ tag: 'apego', category: 'PSYCHOLOGIST_SKILLS', page: '1' }));
  });

  it('an empty library says so; a failed load says why and retries', async () => {
    enter();
    const api = stubRoutes({
      [LIST]: (_req, n) => (n === 1 ? [500, { code: 'internal_error', message: 'Error interno del servidor' }] : [200, listOf([])]),
    });
    const { user } = open();
    expect((await screen.findByRole('alert')).textContent).toContain('No se pudo cargar la biblioteca. Error interno del servidor');
    await user.click(screen.getByRole('button', { name: /Reintentar/ }));
    expect(await screen.findByRole('heading', { name: 'Aún no hay vídeos en la biblioteca' })).toBeTruthy();
    expect(api.count(LIST)).toBe(2);
  });
});
