import { useCallback, useEffect, useState } from 'react';
import { asFailure, isAbort, type Failure } from './errors';
import { appendPage } from './session-format';

type Page<T> = { items: T[]; total: number; page: number; pageSize: number };

export type Pages<T> = {
  items: T[] | null;
  total: number;
  failure: Failure | null;
  /** «Ver más» failed: shown beside the button, the loaded items stay. */
  moreFailure: Failure | null;
  loadingMore: boolean;
  hasMore: boolean;
  more: () => void;
  /** From the first page again (after a change, or «Reintentar»). */
  reload: () => void;
};

/** A paged list read page by page («Ver más»); `reload` starts over from the first page. */
export function usePages<T extends { id: string }>(key: string, read: (page: number, signal?: AbortSignal) => Promise<Page<T>>): Pages<T> {
  const [state, setState] = useState<{ items: T[] | null; total: number; page: number; failure: Failure | null }>({
    items: null,
    total: 0,
    page: 1,
    failure: null,
  });
  const [attempt, setAttempt] = useState(0);
  const [more, setMore] = useState<{ loading: boolean; failure: Failure | null }>({ loading: false, failure: null });

  useEffect(() => {
    const ctrl = new AbortController();
    setState((s) => ({ ...s, failure: null }));
    read(1, ctrl.signal).then(
      (p) => setState({ items: p.items, total: p.total, page: 1, failure: null }),
      (error) => {
        if (!isAbort(error)) setState((s) => ({ ...s, failure: asFailure(error) }));
      },
    );
    return () => ctrl.abort();
    // `read` is a new function each render; `key` names what it reads.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, attempt]);

  const loadMore = useCallback(() => {
    const next = state.page + 1;
    setMore({ loading: true, failure: null });
    read(next).then(
      (p) => {
        setState((s) => ({ items: appendPage(s.items ?? [], p.items), total: p.total, page: next, failure: null }));
        setMore({ loading: false, failure: null });
      },
      (error) => setMore({ loading: false, failure: asFailure(error) }),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, state.page]);

  const reload = useCallback(() => setAttempt((a) => a + 1), []);
  const items = state.items;
  return {
    items,
    total: state.total,
    failure: state.failure,
    moreFailure: more.failure,
    loadingMore: more.loading,
    hasMore: !!items && items.length < state.total,
    more: loadMore,
    reload,
  };
}
