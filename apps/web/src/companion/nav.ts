import { useEffect, useState } from 'react';
import { parseRoute, type Route } from './router';

const EVENT = 'divan:navigate';

/** Goes to another companion page without reloading (`replace`: instead of the current entry). */
export function navigate(href: string, { replace = false } = {}): void {
  if (replace) history.replaceState(null, '', href);
  else history.pushState(null, '', href);
  window.dispatchEvent(new Event(EVENT));
  window.scrollTo({ top: 0 });
}

/** The current route, following links and the browser's back and forward. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.pathname));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.pathname));
    window.addEventListener('popstate', update);
    window.addEventListener(EVENT, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(EVENT, update);
    };
  }, []);
  return route;
}
