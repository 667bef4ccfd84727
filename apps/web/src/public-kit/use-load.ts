import { useCallback, useEffect, useState } from 'react';
import { asFailure, isAbort, type Failure } from './failure';

export type Load<T> = { data: T | null; failure: Failure | null; loading: boolean; retry: () => void; set: (data: T) => void };

/** One read with its loading, failure and retry; a new `key` reads again and drops the previous answer's wait. */
export function useLoad<T>(key: string, read: (signal: AbortSignal) => Promise<T>): Load<T> {
  const [state, setState] = useState<{ key: string; data: T | null; failure: Failure | null }>({ key, data: null, failure: null });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const ctrl = new AbortController();
    setState((s) => (s.key === key ? { ...s, failure: null } : { key, data: null, failure: null }));
    read(ctrl.signal).then(
      (data) => setState({ key, data, failure: null }),
      (error) => {
        if (!isAbort(error)) setState((s) => ({ ...s, key, failure: asFailure(error) }));
      },
    );
    return () => ctrl.abort();
    // `read` is a new function each render; `key` names what it reads.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, attempt]);
  const retry = useCallback(() => setAttempt((a) => a + 1), []);
  const set = useCallback((data: T) => setState({ key, data, failure: null }), [key]);
  const current = state.key === key;
  return {
    data: current ? state.data : null,
    failure: current ? state.failure : null,
    loading: !current || (!state.data && !state.failure),
    retry,
    set,
  };
}
