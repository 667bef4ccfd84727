import { useCallback, useRef, useState } from 'react';

type Options<T> = { onSuccess?: (data: T) => void };
type State<T> = { isPending: boolean; error: Error | null; data: T | undefined };

/**
 * A one-shot async call with pending and error state: the sign-in, sign-up and password screens run
 * before any server data is cached, so they skip TanStack Query and keep their pages light.
 */
export function useAction<V, T>(fn: (vars: V) => Promise<T>, options: Options<T> = {}) {
  const [state, setState] = useState<State<T>>({ isPending: false, error: null, data: undefined });
  const latest = useRef({ fn, options });
  latest.current = { fn, options };

  const mutateAsync = useCallback(async (vars: V): Promise<T> => {
    setState({ isPending: true, error: null, data: undefined });
    try {
      const data = await latest.current.fn(vars);
      latest.current.options.onSuccess?.(data);
      setState({ isPending: false, error: null, data });
      return data;
    } catch (error) {
      setState({ isPending: false, error: error instanceof Error ? error : new Error(String(error)), data: undefined });
      throw error;
    }
  }, []);

  const mutate = useCallback(
    (vars: V, callbacks: { onSuccess?: (data: T) => void; onError?: (error: unknown) => void } = {}) => {
      mutateAsync(vars).then(callbacks.onSuccess, callbacks.onError ?? (() => undefined));
    },
    [mutateAsync],
  );

  return { ...state, isError: state.error !== null, mutate, mutateAsync };
}
