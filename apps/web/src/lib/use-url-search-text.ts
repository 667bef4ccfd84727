import { useEffect, useRef, useState } from 'react';

const SEARCH_DEBOUNCE_MS = 300;

/**
 * A search box's text kept in step with the `value` the address holds: typing writes it once the user
 * pauses (`write` is stable: the caller's list replaces the entry, so Back doesn't replay every keystroke);
 * Back/forward or «Limpiar filtros» change the address, and the box follows.
 */
export function useSearchText(value: string, write: (text: string) => void): [string, (text: string) => void] {
  const [text, setText] = useState(value);
  const sent = useRef(value);

  useEffect(() => {
    if (text.trim() === sent.current.trim()) return;
    // A link followed before the pause (a result, the sidebar): the list is still drawn while the next page
    // loads (React Router navigates in a transition), and writing now would bring the address back to it.
    const path = window.location.pathname;
    const timer = setTimeout(() => {
      if (window.location.pathname !== path) return;
      sent.current = text;
      write(text);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, write]);

  useEffect(() => {
    if (value.trim() !== sent.current.trim()) {
      sent.current = value;
      setText(value);
    }
  }, [value]);

  return [text, setText];
}
