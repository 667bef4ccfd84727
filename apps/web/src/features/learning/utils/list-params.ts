import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { LEARNING_CATEGORIES, type LearningCategory, type LearningListQuery } from '@divan/core';

/** «Mi formación»'s tabs (the API also has `purchased`). */
export const HOME_SHELVES = ['in_progress', 'favorites', 'completed'] as const;
export type HomeShelf = (typeof HOME_SHELVES)[number];

export type CatalogueState = { q: string; category: LearningCategory | null; tag: string | null; page: number };
export type ShelfState = { shelf: HomeShelf; category: LearningCategory | null; page: number };

const oneOf = <T extends string>(values: readonly T[], v: string | null): T | null =>
  v && (values as readonly string[]).includes(v) ? (v as T) : null;
const pageOf = (p: URLSearchParams) => {
  const page = Number(p.get('page'));
  return Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1;
};

/** The catalogue's filters live in the address (shareable, kept on reload and Back); the unknown is ignored. */
export const readCatalogue = (p: URLSearchParams): CatalogueState => ({
  q: (p.get('q') ?? '').slice(0, 100),
  category: oneOf(LEARNING_CATEGORIES, p.get('category')),
  tag: p.get('tag')?.trim().slice(0, 40) || null,
  page: pageOf(p),
});

export const readShelf = (p: URLSearchParams): ShelfState => ({
  shelf: oneOf(HOME_SHELVES, p.get('tab')) ?? 'in_progress',
  category: oneOf(LEARNING_CATEGORIES, p.get('category')),
  page: pageOf(p),
});

/** Only what differs from the defaults, so a clean list has a clean address. */
export function writeParams(state: Partial<CatalogueState & ShelfState>): URLSearchParams {
  const out = new URLSearchParams();
  if (state.shelf && state.shelf !== 'in_progress') out.set('tab', state.shelf);
  if (state.q?.trim()) out.set('q', state.q.trim());
  if (state.category) out.set('category', state.category);
  if (state.tag) out.set('tag', state.tag);
  if (state.page && state.page !== 1) out.set('page', String(state.page));
  return out;
}

export const catalogueQuery = (s: CatalogueState): LearningListQuery => ({
  q: s.q.trim() || undefined,
  category: s.category ?? undefined,
  tag: s.tag ?? undefined,
  page: s.page,
});

export const shelfQuery = (s: ShelfState): LearningListQuery => ({ shelf: s.shelf, category: s.category ?? undefined, page: s.page });

export const hasFilters = (s: CatalogueState) => Boolean(s.q.trim() || s.category || s.tag);

/** A list's state from the address; any change but paging goes back to page 1. */
export function useUrlState<S extends { page: number }>(read: (p: URLSearchParams) => S) {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => read(params), [params, read]);
  const update = useCallback(
    (patch: Partial<S>, options: { replace?: boolean } = {}) =>
      setParams((prev) => writeParams({ ...read(prev), page: 1, ...patch }), { replace: options.replace }),
    [setParams, read],
  );
  return [state, update] as const;
}
