import { useEffect, useState } from 'react';

const EVENT = 'divan:navigate';

/** Goes to another page of the bundle without reloading (`replace`: instead of the current entry); each bundle's frame moves the focus to the page's top. */
export function navigate(href: string, { replace = false } = {}): void {
  if (replace) history.replaceState(null, '', href);
  else history.pushState(null, '', href);
  window.dispatchEvent(new Event(EVENT));
  window.scrollTo({ top: 0 });
}

/** The current route as `parse` reads the path, following links and the browser's back and forward. */
export function useLocationRoute<R>(parse: (path: string) => R): R {
  const [route, setRoute] = useState(() => parse(location.pathname));
  useEffect(() => {
    const update = () => setRoute(parse(location.pathname));
    window.addEventListener('popstate', update);
    window.addEventListener(EVENT, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(EVENT, update);
    };
    // `parse` is each bundle's module-level parser.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return route;
}
