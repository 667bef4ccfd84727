import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { readListState, writeListState, type ListState } from './list-params';

/** The list's state, read from and written to the URL. Any change but paging goes back to page 1. */
export function useListState() {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readListState(params), [params]);
  const update = useCallback(
    (patch: Partial<ListState>, options: { replace?: boolean } = {}) =>
      setParams((prev) => writeListState({ ...readListState(prev), page: 1, ...patch }), { replace: options.replace }),
    [setParams],
  );
  return [state, update] as const;
}
