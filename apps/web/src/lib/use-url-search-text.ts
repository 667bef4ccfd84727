import { useEffect, useRef, useState } from 'react';

const SEARCH_DEBOUNCE_MS = 300;

/**
 * A list's search box kept in step with its `q` in the URL (`update` writes the URL and is stable): typing writes it once the user pauses
 * (replacing the entry, so Back doesn't replay every keystroke); Back/forward or «Limpiar filtros» change
 * the URL, and the box follows.
 */
export function useUrlSearchText(
  q: string,
  update: (patch: { q: string }, options: { replace: boolean }) => void,
): [string, (text: string) => void] {
  const [text, setText] = useState(q);
  const sent = useRef(q);

  useEffect(() => {
    if (text.trim() === sent.current.trim()) return;
    const timer = setTimeout(() => {
      sent.current = text;
      update({ q: text }, { replace: true });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, update]);

  useEffect(() => {
    if (q.trim() !== sent.current.trim()) {
      sent.current = q;
      setText(q);
    }
  }, [q]);

  return [text, setText];
}
