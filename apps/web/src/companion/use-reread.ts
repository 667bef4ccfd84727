import { useEffect, useState } from 'react';

/**
 * Back from a checkout, the payments webhook records the result a moment later: while `waiting`
 * (given the reads so far), read again every 2 s, at most 5 times. `data` changes after each read.
 */
export function useRereadWhile(waiting: (rereads: number) => boolean, retry: () => void, data: unknown): void {
  const [rereads, setRereads] = useState(0);
  const active = waiting(rereads);
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => {
      setRereads((n) => n + 1);
      retry();
    }, 2000);
    return () => clearTimeout(timer);
  }, [active, data, retry]);
}
